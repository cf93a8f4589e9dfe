// The host facts a node agent reports: OS, architecture, CPU, memory, disks (systeminformation), and systemd's
// version and state (systemctl itself). The preflight's host checks judge these.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import si from 'systeminformation';
import type { HostFacts } from '../../main/wire/node-agent';

const run = promisify(execFile);

/** Node's architecture names to Debian's (and Kubernetes'), which the preflight and the catalog use. */
const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'armhf', ia32: 'i386', ppc64: 'ppc64el', s390x: 's390x' };

/** File systems that hold no data of their own: not disks. */
const VIRTUAL_FS = new Set(['overlay', 'tmpfs', 'devtmpfs', 'squashfs', 'proc', 'sysfs', 'cgroup', 'cgroup2', 'nsfs', 'ramfs']);

async function systemd(): Promise<HostFacts['systemd']> {
  const version = await run('systemctl', ['--version'], { timeout: 10_000 }).then(
    (r) => /^systemd (\d+)/.exec(r.stdout)?.[1] ?? null,
    () => null,
  );
  // is-system-running exits non-zero for degraded and the like; its stdout is the state either way.
  const state = await run('systemctl', ['is-system-running'], { timeout: 10_000 }).then(
    (r) => r.stdout.trim() || null,
    (e: { stdout?: string }) => (typeof e.stdout === 'string' && e.stdout.trim()) || null,
  );
  return { version, system_state: version ? state : null };
}

export async function readFacts(): Promise<HostFacts> {
  const [os, cpu, mem, fs, sd] = await Promise.all([si.osInfo(), si.cpu(), si.mem(), si.fsSize(), systemd()]);
  return {
    hostname: os.hostname,
    os: { platform: os.platform, distro: os.distro, release: os.release, codename: os.codename },
    kernel: os.kernel,
    architecture: ARCH[os.arch] ?? os.arch,
    cpu: { brand: `${cpu.manufacturer} ${cpu.brand}`.trim(), cores: cpu.cores, physical_cores: cpu.physicalCores },
    memory: { total_bytes: mem.total, available_bytes: mem.available },
    disks: fs
      .filter((d) => !VIRTUAL_FS.has(d.type) && d.size > 0)
      .map((d) => ({ mount: d.mount, fs: d.fs, type: d.type, size_bytes: d.size, available_bytes: d.available })),
    systemd: sd,
    collected_at: new Date().toISOString(),
  };
}
