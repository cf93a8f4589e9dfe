// Locates the openssl binary for the interoperability tests: on PATH first, then the Debian location.
import { existsSync } from 'node:fs';
import path from 'node:path';

export function findOpenssl(): string | null {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of [...dirs, '/usr/bin']) {
    const candidate = path.join(dir, 'openssl');
    if (existsSync(candidate)) return candidate;
  }
  return null;
}
