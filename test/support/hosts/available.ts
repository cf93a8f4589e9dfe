// Whether test hosts can boot on this machine, and if not, the one specific thing that is missing.
import { readFileSync } from 'node:fs';
import { cgroupMounts } from './cgroups';
import { commandExists } from './system';

export type HostsAvailability = { ok: true } | { ok: false; reason: string };

const TOOLS: [string, string][] = [
  ['systemd-nspawn', 'systemd-container'],
  ['mmdebstrap', 'mmdebstrap'],
  ['ip', 'iproute2'],
  ['nsenter', 'util-linux'],
  ['unshare', 'util-linux'],
  ['flock', 'util-linux'],
  ['tar', 'tar'],
];

let cached: HostsAvailability | undefined;

export function hostsAvailable(): HostsAvailability {
  return (cached ??= check());
}

function check(): HostsAvailability {
  if (process.platform !== 'linux') return { ok: false, reason: `test hosts need Linux (this is ${process.platform})` };
  if (process.getuid?.() !== 0)
    return { ok: false, reason: `test hosts need root (systemd-nspawn, bridges, mounts); running as uid ${process.getuid?.()}` };
  for (const [tool, pkg] of TOOLS) if (!commandExists(tool)) return { ok: false, reason: `${tool} not found (Debian package ${pkg})` };
  if (!cgroupMounts().unified)
    return { ok: false, reason: 'no cgroup v2 hierarchy is mounted (test hosts kill and track their processes through it)' };
  let fs = '';
  try {
    fs = readFileSync('/proc/filesystems', 'utf8');
  } catch {
    // no /proc: reported below
  }
  if (!/\soverlay\n/.test(fs)) return { ok: false, reason: 'the kernel offers no overlay file system (modprobe overlay)' };
  return { ok: true };
}
