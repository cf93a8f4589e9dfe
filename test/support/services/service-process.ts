// A real service binary run by a test: its own data folder, its log kept for the evidence, stopped by the test.
// As root it runs as nobody, as the Debian units run these services under their own users, so a data folder
// made read-only by hand refuses it writes (root would write through any mode).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NOBODY = 65534;
export const runsAsNobody = typeof process.getuid === 'function' && process.getuid() === 0;

/** A folder for a test's services, reachable by the service user, removed by remove(). */
export function serviceDir(prefix: string): { path: string; sub(name: string): string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(path, 0o755);
  return {
    path,
    sub(name: string) {
      const p = join(path, name);
      mkdirSync(p, { recursive: true, mode: 0o700 });
      if (runsAsNobody) chownSync(p, NOBODY, NOBODY);
      return p;
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

export class ServiceProcess {
  private child: ChildProcess | null = null;
  private exit: Promise<number | null> | null = null;
  log = '';

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
  ) {}

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process without waiting for it to be ready: for a start that is expected to fail. */
  spawn(): void {
    if (this.running) throw new Error(`${this.name} is already running`);
    const child = spawn(this.command, this.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(runsAsNobody ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    this.child = child;
    const append = (b: Buffer) => {
      this.log = (this.log + b.toString()).slice(-64_000);
    };
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    this.exit = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Starts the process and waits until ready() says yes, or fails with the log if it exits or takes too long. */
  async start(ready: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
    this.spawn();
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running)
        throw new Error(`${this.name} exited (${this.child?.exitCode ?? this.child?.signalCode}):\n${this.log.slice(-2000)}`);
      if (await ready().catch(() => false)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.name} not ready within ${timeoutMs} ms:\n${this.log.slice(-2000)}`);
  }

  /** Resolves with the exit code once the process has ended (at once when it is not running). */
  async exited(timeoutMs = 10_000): Promise<number | null> {
    if (!this.exit) return null;
    const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), timeoutMs).unref());
    const result = await Promise.race([this.exit, timer]);
    if (result === 'timeout') throw new Error(`${this.name} still running after ${timeoutMs} ms`);
    return result;
  }

  /** SIGTERM, then SIGKILL after a grace period; resolves once the process is gone. */
  async stop(graceMs = 5_000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    child.kill('SIGTERM');
    try {
      await this.exited(graceMs);
    } catch {
      child.kill('SIGKILL');
      await this.exited(graceMs);
    }
  }
}
