// One control group per host. systemd-nspawn --keep-unit puts the container under the cgroup it was started
// in; with no systemd on the outside every nspawn would otherwise share the root's `payload` group and the
// systemd instances of two hosts would manage (and kill) each other's processes. The group also gives the
// sweep every process of a host, the leader's children included, to kill at once.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from './system';

const GROUP = 'navin-test-hosts';

interface Mounts {
  /** The cgroup v2 hierarchy (processes are killed through it). */
  unified?: string;
  /** The name=systemd v1 hierarchy of a hybrid host, which nspawn also uses. */
  legacy?: string;
}

export function cgroupMounts(): Mounts {
  const m: Mounts = {};
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const [pre, post] = line.split(' - ');
    if (!pre || !post) continue;
    const point = pre.split(' ')[4];
    const [fstype, , opts] = post.split(' ');
    if (fstype === 'cgroup2' && !m.unified) m.unified = point;
    if (fstype === 'cgroup' && opts?.split(',').includes('name=systemd')) m.legacy = point;
  }
  return m;
}

function groupDirs(name: string): string[] {
  const m = cgroupMounts();
  return [m.unified, m.legacy].filter((p): p is string => !!p).map((p) => join(p, GROUP, name));
}

export function createHostCgroup(name: string): string[] {
  const dirs = groupDirs(name);
  for (const d of dirs) mkdirSync(d, { recursive: true });
  return dirs;
}

/** A shell prefix that moves the shell into the host's groups before it execs systemd-nspawn. */
export function enterCgroupScript(dirs: string[]): string {
  return dirs.map((d) => `echo $$ > '${d}/cgroup.procs' || exit 97; `).join('') + 'exec "$@"';
}

/** Names of the hosts that have a group (live or left by a crash). */
export function hostCgroupNames(): string[] {
  const root = cgroupMounts().unified;
  if (!root || !existsSync(join(root, GROUP))) return [];
  return readdirSync(join(root, GROUP), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
}

function populated(dir: string): boolean {
  try {
    return /populated 1/.test(readFileSync(join(dir, 'cgroup.events'), 'utf8'));
  } catch {
    return false;
  }
}

function pidsBelow(dir: string): number[] {
  const pids: number[] = [];
  const walk = (d: string) => {
    try {
      for (const p of readFileSync(join(d, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) pids.push(Number(p));
      for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(join(d, e.name));
    } catch {
      // removed meanwhile
    }
  };
  walk(dir);
  return pids;
}

/** Kills every process of the host's group and waits until the group is empty. */
export async function killHostCgroup(name: string, waitMs = 10_000): Promise<void> {
  const root = cgroupMounts().unified;
  if (!root) return;
  const dir = join(root, GROUP, name);
  if (!existsSync(dir)) return;
  const deadline = Date.now() + waitMs;
  while (populated(dir)) {
    try {
      writeFileSync(join(dir, 'cgroup.kill'), '1');
    } catch {
      // kernels before 5.14 have no cgroup.kill
      for (const pid of pidsBelow(dir)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
    if (Date.now() > deadline) throw new Error(`processes of host ${name} survive SIGKILL: ${pidsBelow(dir).join(' ')}`);
    await sleep(50);
  }
}

/** Removes the host's groups (they must be empty), deepest first. */
export function removeHostCgroup(name: string): void {
  const rmTree = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) rmTree(join(d, e.name));
    rmdirSync(d);
  };
  for (const d of groupDirs(name)) rmTree(d);
}
