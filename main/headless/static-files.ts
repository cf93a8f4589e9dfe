// Serves the built renderer: files by path, index.html for the console's own routes, never outside its root.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  type: string;
  immutable: boolean;
}

export function staticFile(root: string, urlPath: string): StaticFile | undefined {
  if (!existsSync(root)) return undefined;
  let rel: string;
  try {
    rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  } catch {
    return undefined;
  }
  const file = join(root, rel);
  if (file !== root && !file.startsWith(root + sep)) return undefined;
  if (rel && existsSync(file) && statSync(file).isFile()) {
    return {
      body: readFileSync(file),
      type: TYPES[extname(file)] ?? 'application/octet-stream',
      immutable: rel.startsWith('assets' + sep),
    };
  }
  // A path with an extension that does not exist is a 404, not the app.
  if (extname(rel)) return undefined;
  const index = join(root, 'index.html');
  return existsSync(index) ? { body: readFileSync(index), type: TYPES['.html']!, immutable: false } : undefined;
}
