// Starts the real headless manager (`node out/main/cli.js serve`) on a free loopback port with a fresh data
// dir and the accounts a test needs, and stops it cleanly (SIGINT, wait for exit, remove the dir).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CLI = join(REPO_ROOT, 'out', 'main', 'cli.js');

export interface ManagerUser {
  name: string;
  role: 'admin' | 'operator' | 'viewer';
  password: string;
}

export interface RunningManager {
  /** The console URL printed by serve, e.g. https://127.0.0.1:40123/ */
  url: string;
  /** The one-time login link printed by serve (`...#ticket=...`), when it printed one. */
  loginLink: string | null;
  /** The first-run setup link printed by serve when no account exists (`...#setup=...`). */
  setupLink: string | null;
  dataDir: string;
  /** The embedded agent gateway, as serve printed it ("agent gateway at https://127.0.0.1:PORT (server name N)"). */
  gateway: { url: string; port: number; serverName: string } | null;
  /** An API token of a user (`navin-manager token create`), for requests from the test itself. */
  token(user: string): Promise<string>;
  /** Everything the manager printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export const ALICE: ManagerUser = { name: 'alice', role: 'admin', password: 'correct-horse-battery-staple' };

const CONSOLE_LINE = /console at (https:\/\/\S+)/;
const TICKET_LINK = /(https:\/\/\S+#ticket=\S+)/;
const SETUP_LINK = /(https:\/\/\S+#setup=\S+)/;
const GATEWAY_LINE = /agent gateway at (https:\/\/[^\s]+) \(server name ([^)\s]+)\)/;

export function runCli(args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`navin-manager ${args.join(' ')} did not finish in ${timeoutMs} ms\n${out}`));
    }, timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export async function startManager(
  options: { users?: ManagerUser[]; startTimeoutMs?: number; serveArgs?: string[] } = {},
): Promise<RunningManager> {
  const users = options.users ?? [ALICE];
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);

  const root = await mkdtemp(join(tmpdir(), 'navin-e2e-'));
  const dataDir = join(root, 'data');
  await mkdir(dataDir, { mode: 0o700 });
  const cleanup = (): Promise<void> => rm(root, { recursive: true, force: true });

  try {
    for (const user of users) {
      const passwordFile = join(root, `${user.name}.password`);
      await writeFile(passwordFile, `${user.password}\n`, { mode: 0o600 });
      const { code, out } = await runCli(
        ['user', 'add', '--data-dir', dataDir, '--name', user.name, '--role', user.role, '--password-file', passwordFile],
        60_000,
      );
      if (code !== 0) throw new Error(`navin-manager user add ${user.name} exited with ${code}:\n${out}`);
    }
  } catch (e) {
    await cleanup();
    throw e;
  }

  // Any free port for the console and for the embedded agent gateway (default 8462), so test managers never
  // collide with each other or with a manager running on the workstation.
  const serveArgs = [
    'serve',
    '--data-dir',
    dataDir,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--gateway-port',
    '0',
    ...(options.serveArgs ?? []),
  ];
  const child = spawn(process.execPath, [CLI, ...serveArgs], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let loginLink: string | null = null;
  let setupLink: string | null = null;
  let gateway: RunningManager['gateway'] = null;
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      if (!(await waitForExit(child, 15_000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
      }
    }
    await cleanup();
  };

  try {
    const url = await new Promise<string>((resolve, reject) => {
      let buffered = '';
      let found: string | null = null;
      const timer = setTimeout(
        () => reject(new Error(`navin-manager serve printed no console URL in ${startTimeoutMs} ms:\n${output}`)),
        startTimeoutMs,
      );
      child.stdout?.on('data', (c: Buffer) => {
        const text = c.toString();
        output += text;
        buffered += text;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          const ticket = TICKET_LINK.exec(line);
          if (ticket?.[1]) loginLink = ticket[1];
          const setup = SETUP_LINK.exec(line);
          if (setup?.[1]) setupLink = setup[1];
          const gw = GATEWAY_LINE.exec(line);
          if (gw?.[1] && gw[2]) gateway = { url: gw[1], port: Number(new URL(gw[1]).port), serverName: gw[2] };
          const m = CONSOLE_LINE.exec(line);
          if (m?.[1] && !found) {
            found = m[1];
            clearTimeout(timer);
            resolve(found);
          }
        }
      });
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (!found) reject(new Error(`navin-manager serve exited (${code ?? signal}) before it was ready:\n${output}`));
      });
    });
    // The login or setup link is printed right after the console line; give it a moment.
    const deadline = Date.now() + 2_000;
    while (!loginLink && !setupLink && Date.now() < deadline && /press Ctrl-C/.test(output) === false) {
      await new Promise((r) => setTimeout(r, 50));
    }
    return {
      url,
      get loginLink() {
        return loginLink;
      },
      get setupLink() {
        return setupLink;
      },
      get gateway() {
        return gateway;
      },
      async token(user: string) {
        const { code, out } = await runCli(['token', 'create', '--data-dir', dataDir, '--user', user], 60_000);
        if (code !== 0) throw new Error(`navin-manager token create exited with ${code}:\n${out}`);
        return out.trim().split('\n').pop()!.trim();
      },
      dataDir,
      output: () => output,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
