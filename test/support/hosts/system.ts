// Small wrappers over the outside system the hosts need: running a tool, reading /proc, and removing a
// tree only after whatever is mounted under it has been unmounted (a mounted /dev must never be deleted).
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { HostsError } from './errors';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  input?: string | Buffer;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Resolve with a non-zero code instead of throwing. */
  allowFail?: boolean;
  /** Sees the standard error as it comes (progress of long builds). */
  onStderr?: (chunk: string) => void;
}

/** Runs a program to its end; throws `command_failed` on a non-zero exit unless allowFail. */
export function run(file: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], env: opts.env ?? process.env, detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, opts.timeoutMs ?? 120_000);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      err.push(b);
      opts.onStderr?.(b.toString());
    });
    child.stdin.on('error', () => {}); // a program that exits without reading its input is not an error here
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new HostsError('command_failed', `${file}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const r = { code: code ?? 128 + 9, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
      if (timedOut) return reject(new HostsError('command_failed', `${file} ${args.join(' ')}: timed out\n${r.stderr}`));
      if (r.code !== 0 && !opts.allowFail) {
        const why = signal ? `killed by ${signal}` : `exit ${r.code}`;
        return reject(new HostsError('command_failed', `${file} ${args.join(' ')}: ${why}\n${r.stderr.trim()}`));
      }
      resolve(r);
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Kills a whole process group (a program run detached and everything it forked, nsenter's child included). */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export function commandExists(name: string): boolean {
  const dirs = (process.env.PATH ?? '').split(':').filter(Boolean);
  return [...dirs, '/usr/sbin', '/usr/bin', '/sbin', '/bin'].some((d) => {
    try {
      accessSync(`${d}/${name}`, constants.X_OK);
      return statSync(`${d}/${name}`).isFile();
    } catch {
      return false;
    }
  });
}

/** State, parent PID and command name of a process, or undefined once it is gone. */
export function procStat(pid: number): { state: string; ppid: number; comm: string; startTicks: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    const fields = s.slice(close + 2).split(' ');
    return { comm: s.slice(s.indexOf('(') + 1, close), state: fields[0]!, ppid: Number(fields[1]), startTicks: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

/** Still running: neither gone nor a zombie waiting for its new parent (PID 1) to reap it. */
export function isRunning(pid: number): boolean {
  const st = procStat(pid)?.state;
  return st !== undefined && st !== 'Z' && st !== 'X';
}

export async function childrenOf(pid: number): Promise<number[]> {
  const kids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    if (procStat(Number(name))?.ppid === pid) kids.push(Number(name));
  }
  return kids;
}

/** Mount points at or below a directory, deepest first (from this process's mount table). */
export function mountsUnder(dir: string): string[] {
  const table = readFileSync('/proc/self/mountinfo', 'utf8');
  const points = table
    .split('\n')
    .map((l) => l.split(' ')[4])
    .filter((p): p is string => !!p)
    .map((p) => p.replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))))
    .filter((p) => p === dir || p.startsWith(dir + '/'));
  return points.sort((a, b) => b.length - a.length);
}

/** Unmounts everything under dir, then removes it. */
export async function removeTree(dir: string): Promise<void> {
  for (const point of mountsUnder(dir)) await run('umount', ['--lazy', point], { allowFail: true });
  if (mountsUnder(dir).length > 0) throw new HostsError('command_failed', `cannot unmount what is mounted under ${dir}`);
  await rm(dir, { recursive: true, force: true });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits for a promise at most ms; true if it settled in time. The timer never outlives the wait. */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
  try {
    return await Promise.race([
      p.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
