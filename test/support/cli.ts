// Runs the built navin-manager CLI (out/main/cli.js) as a real process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = fileURLToPath(new URL('../../out/main/cli.js', import.meta.url));

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error('out/main/cli.js is missing: run `npm run build` first (npm test does)');
}

export function runCli(
  args: string[],
  opts: { input?: string; env?: NodeJS.ProcessEnv } = {},
): { status: number; stdout: string; stderr: string } {
  assertBuilt();
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    input: opts.input,
    env: { ...process.env, ...opts.env },
    timeout: 60_000,
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export interface Served {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Sends SIGINT and resolves with the exit code. */
  stop(): Promise<number | null>;
}

export async function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--gateway-port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 30_000);
    const check = (): void => {
      const m = /console at (https:\/\/\S+)/.exec(out);
      if (m && /Ctrl-C/.test(out)) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${out}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    url,
    output: () => out,
    stop: () => {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}
