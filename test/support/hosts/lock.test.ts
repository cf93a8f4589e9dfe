// The cross-process lock behind subnet claims and the root file system build: exclusive, waitable, and
// released by the kernel when its holder is killed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tempDir } from '../temp-dir';
import { acquireLock } from './lock';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

it('is exclusive: a second taker without waiting gets nothing until the first releases', async () => {
  const path = join(dir.path, 'a.lock');
  const first = await acquireLock(path);
  expect(first).toBeDefined();
  expect(await acquireLock(path)).toBeUndefined();
  await first!.release();
  const again = await acquireLock(path);
  expect(again).toBeDefined();
  await again!.release();
});

it('a waiting taker gets the lock once it is released, and gives up with an error after its wait', async () => {
  const path = join(dir.path, 'b.lock');
  const first = (await acquireLock(path))!;
  await expect(acquireLock(path, 1_000)).rejects.toMatchObject({ code: 'command_failed', message: expect.stringContaining('still held') });
  const waiting = acquireLock(path, 10_000);
  setTimeout(() => void first.release(), 200);
  const second = await waiting;
  expect(second).toBeDefined();
  await second!.release();
});

it('keeps the note its holder writes for whoever takes it next', async () => {
  const path = join(dir.path, 'c.lock');
  const l = (await acquireLock(path))!;
  l.note('{"pid":1}');
  await l.release();
  expect(readFileSync(path, 'utf8')).toBe('{"pid":1}');
});

it('is released when its holder is killed with SIGKILL, with nothing to clean up', async () => {
  const path = join(dir.path, 'd.lock');
  const script = join(dir.path, 'holder.mjs');
  await build({
    stdin: {
      contents: `import { acquireLock } from './lock'; const l = await acquireLock(${JSON.stringify(path)}); console.log(l ? 'held' : 'busy'); setInterval(() => {}, 60000);`,
      resolveDir: import.meta.dirname,
      loader: 'ts',
    },
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const said = await new Promise<string>((r) => child.stdout.once('data', (b: Buffer) => r(b.toString().trim())));
  expect(said).toBe('held');
  expect(await acquireLock(path)).toBeUndefined();
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  const taken = await acquireLock(path, 5_000);
  expect(taken).toBeDefined();
  await taken!.release();
});
