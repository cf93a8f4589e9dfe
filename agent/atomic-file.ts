// A file replaced as one step, for both agents: the bytes written to a temp file in the same folder, flushed,
// renamed over the file, then the folder flushed, so that a reader or a restart sees the old file or the new one.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Writes bytes atomically at a real path (temp in the same folder, fsync, rename, fsync of the folder). */
export function writeAtomic(real: string, data: Buffer, mode: number): void {
  const tmp = join(dirname(real), `.${basename(real)}.navin-${randomBytes(4).toString('hex')}`);
  try {
    const fd = openSync(tmp, 'wx', mode);
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, real);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  syncDir(dirname(real));
}

export function syncDir(dir: string): void {
  const d = openSync(dir, 'r');
  try {
    fsyncSync(d);
  } finally {
    closeSync(d);
  }
}
