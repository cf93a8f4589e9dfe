// Where the shared public test vectors live: beside the repository, never copied into it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export const VECTORS_DIR = path.resolve(repoRoot, '..', 'shared', 'vectors');

export function vectorPath(...parts: string[]): string {
  return path.join(VECTORS_DIR, ...parts);
}

export function readVector(...parts: string[]): Buffer {
  return readFileSync(vectorPath(...parts));
}
