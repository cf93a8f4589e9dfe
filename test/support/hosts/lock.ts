// Cross-process locks that the kernel releases when their holder dies: flock(1) holds the lock for as
// long as our end of its stdin stays open, so a suite killed with SIGKILL frees its claim at once and the
// next sweep can tell a dead owner from a live one without guessing from PIDs.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { HostsError } from './errors';

export interface HeldLock {
  path: string;
  /** Records who holds the lock in the lock file itself (read by a sweeper once it holds the lock). */
  note(text: string): void;
  release(): Promise<void>;
}

/**
 * Takes an exclusive lock on `path`. With waitMs 0 it fails fast: resolves undefined when someone holds it.
 * Otherwise waits up to waitMs and throws if the lock is still held then.
 */
export function acquireLock(path: string, waitMs = 0): Promise<HeldLock | undefined> {
  const mode = waitMs > 0 ? ['-w', String(Math.ceil(waitMs / 1000))] : ['-n'];
  const child = spawn('flock', ['-x', ...mode, '-E', '75', path, 'sh', '-c', 'echo locked; exec cat >/dev/null'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    let settled = false;
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (settled || !out.includes('locked')) return;
      settled = true;
      // Once held, the lock must not keep the process alive: if the process ends, the pipe closes and the
      // kernel releases the lock, which is exactly what a crashed suite needs.
      const handles = [child, child.stdin, child.stdout, child.stderr] as unknown as { ref?: () => void; unref?: () => void }[];
      for (const h of handles) h.unref?.();
      const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
      resolve({
        path,
        note: (text) => writeFileSync(path, text),
        async release() {
          // Held again while releasing, or a process with nothing else to do would exit before flock does.
          for (const h of handles) h.ref?.();
          child.stdin.end();
          await exited;
        },
      });
    });
    child.on('error', (e) => reject(new HostsError('command_failed', `flock: ${e.message}`)));
    child.on('exit', (code) => {
      if (settled) return;
      settled = true;
      if (code === 75 && waitMs === 0) return resolve(undefined);
      if (code === 75) return reject(new HostsError('command_failed', `lock ${path} still held after ${waitMs} ms`));
      reject(new HostsError('command_failed', `flock ${path}: exit ${code}: ${err.trim()}`));
    });
    child.stdin.on('error', () => {});
  });
}
