// The host facts a node agent reports: OS, architecture, CPU, memory, disks (systeminformation), systemd's
// version and state (systemctl itself), the TCP ports listened on, the kernel settings and tools the catalog may
// require. The preflight's host and service checks judge these.
import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import si from 'systeminformation';
import { HOST_SYSCTL_KEYS, HOST_TOOLS, type HostFacts } from '../../main/wire/node-agent';
import { ExecutionError } from '../commands';

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

/** The local ports of the TCP sockets in state LISTEN (0A), IPv4 and IPv6, from the kernel's tables. */
export function listeningPorts(procNet = '/proc/net'): number[] {
  const ports = new Set<number>();
  for (const file of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(join(procNet, file), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] !== '0A') continue;
      const port = Number.parseInt(cols[1]?.split(':').pop() ?? '', 16);
      if (Number.isInteger(port) && port > 0) ports.add(port);
    }
  }
  return [...ports].sort((a, b) => a - b);
}

function sysctl(procSys = '/proc/sys'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of HOST_SYSCTL_KEYS) {
    try {
      out[key] = readFileSync(join(procSys, ...key.split('.')), 'utf8')
        .trim()
        .replace(/\s+/g, ' ');
    } catch {
      // absent on this kernel: not reported
    }
  }
  return out;
}

function tools(path = process.env.PATH ?? ''): Record<string, boolean> {
  const dirs = path.split(delimiter).filter(Boolean);
  const found = (tool: string): boolean =>
    dirs.some((d) => {
      try {
        accessSync(join(d, tool), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  return Object.fromEntries(HOST_TOOLS.map((t) => [t, found(t)]));
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
      // An overlay mounted as / (a container's or a live system's root) is where the host's data lands: a disk.
      .filter((d) => (!VIRTUAL_FS.has(d.type) || (d.type === 'overlay' && d.mount === '/')) && d.size > 0)
      .map((d) => ({ mount: d.mount, fs: d.fs, type: d.type, size_bytes: d.size, available_bytes: d.available })),
    systemd: sd,
    listening_ports: listeningPorts(),
    sysctl: sysctl(),
    tools: tools(),
    collected_at: new Date().toISOString(),
  };
}

let reading: Promise<HostFacts> | undefined;

/**
 * The facts, given up on after `ms` (facts_timeout): systeminformation runs df with no timeout of its own, and
 * a df stuck on a dead network mount held every report and the command queue behind a facts.report. One read
 * at a time: while one is stuck, later calls wait on it rather than start another df beside it.
 */
export function readFactsWithin(ms: number): Promise<HostFacts> {
  const current = (reading ??= readFacts().finally(() => (reading = undefined)));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ExecutionError('facts_timeout', `the host facts were not read within ${ms / 1000} s`)), ms);
  });
  return Promise.race([current, late]).finally(() => clearTimeout(timer));
}
