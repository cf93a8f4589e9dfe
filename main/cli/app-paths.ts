// Where the built app lives, found from this file wherever the bundler put it (entry or chunk): the package
// root is the nearest folder up with package.json, the console build is its out/renderer.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findUp(start: string, marker: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, marker))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

const here = dirname(fileURLToPath(import.meta.url));

export const APP_ROOT = findUp(here, 'package.json') ?? here;
export const RENDERER_DIR = join(APP_ROOT, 'out', 'renderer');
