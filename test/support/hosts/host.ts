// One test host: its own overlay over the cached root file system, booted by systemd-nspawn with real
// systemd as PID 1 in its own namespaces, commands run inside with nsenter on the leader PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createHostCgroup, enterCgroupScript, killHostCgroup, removeHostCgroup } from './cgroups';
import { HostsError } from './errors';
import { configureInside, deleteLink, outsideVeth } from './network';
import { childrenOf, killGroup, procStat, removeTree, run, settlesWithin, sleep } from './system';

export interface ExecOptions {
  input?: string | Buffer;
  /** Default 60 s; on expiry the command is killed and exec rejects with host_exec_timeout. */
  timeoutMs?: number;
  /** Added to the clean environment commands get inside (PATH, HOME=/root, LANG=C.UTF-8). */
  env?: Record<string, string>;
}

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface TestHost {
  /** Machine name, also the host name inside: nvh<subnet>h<i>. */
  name: string;
  /** The host's address on the suite bridge, e.g. 198.18.7.11. */
  address: string;
  /** PID 1 of the container (systemd), as seen from the outside. */
  leaderPid: number;
  /** Its root file system on the outside (an overlay: writes land in this host's layer only). */
  rootDir: string;
  exec(argv: string[], opts?: ExecOptions): Promise<ExecResult>;
  /** Copies a file or a directory tree to pathInHost (files land atomically, with their mode). */
  copyIn(localPath: string, pathInHost: string): Promise<void>;
  /** Resolves once `systemctl is-system-running` says running or degraded. */
  waitSystemd(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface HostSpec {
  name: string;
  address: string;
  bridge: string;
  /** The cached root file system (the overlay's lower layer, never written). */
  lowerDir: string;
  /** This host's own directory (overlay layers, console log). */
  dir: string;
}

const PATH_INSIDE = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
export const nspawnRunDir = (name: string) => `/run/systemd/nspawn/propagate/${name}`;

export async function bootHost(spec: HostSpec): Promise<TestHost> {
  const rootDir = join(spec.dir, 'root');
  for (const d of ['upper', 'work', 'root']) mkdirSync(join(spec.dir, d), { recursive: true });
  await run('mount', [
    '-t',
    'overlay',
    'overlay',
    '-o',
    `lowerdir=${spec.lowerDir},upperdir=${spec.dir}/upper,workdir=${spec.dir}/work`,
    rootDir,
  ]);
  const cgroups = createHostCgroup(spec.name);

  const consolePath = join(spec.dir, 'console.log');
  const consoleFd = openSync(consolePath, 'a');
  const nspawnArgs = [
    '--quiet',
    '--boot',
    '--register=no',
    '--keep-unit',
    '--network-veth',
    `--network-bridge=${spec.bridge}`,
    `--machine=${spec.name}`,
    `--directory=${rootDir}`,
    '--console=passive',
    '--resolv-conf=off',
    '--timezone=off',
    '--link-journal=no',
  ];
  let nspawn: ChildProcess;
  try {
    nspawn = spawn('sh', ['-c', enterCgroupScript(cgroups), 'sh', 'systemd-nspawn', ...nspawnArgs], {
      stdio: ['ignore', consoleFd, consoleFd],
      // Image locks would be left in /run by a crash; the overlay is this host's alone anyway.
      env: { ...process.env, SYSTEMD_NSPAWN_LOCK: '0' },
      // Its own process group: a terminal's Ctrl-C reaches the test runner, which then stops hosts in order.
      detached: true,
    });
  } finally {
    closeSync(consoleFd);
  }
  const exited = new Promise<number>((r) => nspawn.once('exit', (code, signal) => r(code ?? (signal ? 128 : 1))));
  let gone = false;
  void exited.then(() => (gone = true));
  const consoleTail = () => {
    try {
      return readFileSync(consolePath, 'utf8').split('\n').slice(-15).join('\n');
    } catch {
      return '';
    }
  };

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (!gone) {
        // SIGTERM makes nspawn ask systemd inside for an orderly shutdown (about 2 s).
        nspawn.kill('SIGTERM');
        await settlesWithin(exited, 15_000);
      }
      await killHostCgroup(spec.name);
      await settlesWithin(exited, 5_000);
      await deleteLink(outsideVeth(spec.name));
      removeHostCgroup(spec.name);
      await removeTree(spec.dir);
      await rm(nspawnRunDir(spec.name), { recursive: true, force: true });
    })());

  try {
    const leaderPid = await findLeader(nspawn.pid!, () => gone, 30_000);
    await configureInside(leaderPid, spec.address, spec.name);
    const host = makeHost(spec, rootDir, leaderPid, stop);
    await host.waitSystemd();
    return host;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    await stop().catch(() => {});
    throw new HostsError('host_boot_failed', `host ${spec.name} did not boot: ${why}\n--- console ---\n${consoleTail()}`);
  }
}

/** The container's PID 1 is nspawn's child once it has exec'd systemd. */
async function findLeader(nspawnPid: number, isGone: () => boolean, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (isGone()) throw new Error('systemd-nspawn exited');
    for (const kid of await childrenOf(nspawnPid)) if (procStat(kid)?.comm === 'systemd') return kid;
    await sleep(50);
  }
  throw new Error(`no systemd under systemd-nspawn (pid ${nspawnPid}) after ${timeoutMs} ms`);
}

function nsenterArgs(leaderPid: number, argv: string[], env: Record<string, string> = {}): string[] {
  const vars = Object.entries({ PATH: PATH_INSIDE, HOME: '/root', LANG: 'C.UTF-8', ...env }).map(([k, v]) => `${k}=${v}`);
  return [`--target=${leaderPid}`, '--all', '--', 'env', '-i', ...vars, ...argv];
}

function collect(child: ChildProcess, what: string, timeoutMs: number): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    // nsenter forks into the PID namespace: killing its whole group takes the command inside too.
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new HostsError('command_failed', `${what}: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const r = { code: code ?? 137, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
      // The output so far goes with the error; its code stays the error's.
      if (timedOut)
        reject(
          Object.assign(new HostsError('host_exec_timeout', `${what}: still running after ${timeoutMs} ms, killed`), {
            stdout: r.stdout,
            stderr: r.stderr,
          }),
        );
      else resolve(r);
    });
  });
}

function makeHost(spec: HostSpec, rootDir: string, leaderPid: number, stop: () => Promise<void>): TestHost {
  const enter = (argv: string[], env?: Record<string, string>) =>
    spawn('nsenter', nsenterArgs(leaderPid, argv, env), { stdio: ['pipe', 'pipe', 'pipe'], detached: true });

  const host: TestHost = {
    name: spec.name,
    address: spec.address,
    leaderPid,
    rootDir,
    exec(argv, opts = {}) {
      const child = enter(argv, opts.env);
      const done = collect(child, `${spec.name}: ${argv.join(' ')}`, opts.timeoutMs ?? 60_000);
      child.stdin.on('error', () => {});
      child.stdin.end(opts.input ?? '');
      return done;
    },
    async copyIn(localPath, pathInHost) {
      if (!pathInHost.startsWith('/')) throw new HostsError('host_copy_failed', `path in host must be absolute: ${pathInHost}`);
      const st = await stat(localPath);
      let r: ExecResult;
      if (st.isDirectory()) {
        // tar on both sides: symbolic links inside the host resolve inside it, never on the outside.
        const child = enter(['sh', '-c', 'mkdir -p -- "$1" && tar -xf - -C "$1"', 'sh', pathInHost]);
        const done = collect(child, `${spec.name}: copy ${localPath}`, 300_000);
        const tar = spawn('tar', ['-C', localPath, '-cf', '-', '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let tarErr = '';
        tar.stderr.on('data', (b: Buffer) => (tarErr += b.toString()));
        const packed = new Promise<number>((res) => tar.once('close', (code) => res(code ?? 1)));
        tar.stdout.pipe(child.stdin!);
        const [tarCode, unpacked] = await Promise.all([packed, done]);
        if (tarCode !== 0) throw new HostsError('host_copy_failed', `copy ${localPath}: tar exit ${tarCode}: ${tarErr.trim()}`);
        r = unpacked;
      } else {
        const script =
          'set -e; mkdir -p -- "$(dirname -- "$1")"; cat > "$1.navin-part"; chmod "$2" "$1.navin-part"; mv -f -- "$1.navin-part" "$1"';
        const child = enter(['sh', '-c', script, 'sh', pathInHost, (st.mode & 0o7777).toString(8)]);
        const done = collect(child, `${spec.name}: copy ${localPath}`, 300_000);
        createReadStream(localPath).pipe(child.stdin!);
        r = await done;
      }
      if (r.code !== 0)
        throw new HostsError('host_copy_failed', `copy ${localPath} to ${spec.name}:${pathInHost}: exit ${r.code}: ${r.stderr.trim()}`);
    },
    async waitSystemd(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        const r = await host.exec(['systemctl', 'is-system-running'], { timeoutMs: 10_000 });
        last = r.stdout.trim() || r.stderr.trim();
        if (last === 'running' || last === 'degraded') return;
        await sleep(100);
      }
      const failed = await host.exec(['systemctl', '--failed', '--no-pager', '--plain'], { timeoutMs: 10_000 }).catch(() => undefined);
      throw new Error(`systemd is "${last}" after ${timeoutMs} ms${failed ? `\n${failed.stdout}` : ''}`);
    },
    stop,
  };
  return host;
}
