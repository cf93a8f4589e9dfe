// A host's facts as a node agent reports them, for tests that need a well-formed set.
import type { HostFacts } from '../../main/wire/node-agent';

export const hostFacts = (over: Partial<HostFacts> = {}, at = '2026-12-04T12:00:00.000Z'): HostFacts => ({
  hostname: 'h',
  os: { platform: 'linux', distro: 'Debian GNU/Linux', release: '12', codename: 'bookworm' },
  kernel: '6.1.0',
  architecture: 'amd64',
  cpu: { brand: 'x', cores: 2, physical_cores: 2 },
  memory: { total_bytes: 8 * 1024 ** 3, available_bytes: 6 * 1024 ** 3 },
  disks: [{ mount: '/', fs: 'overlay', type: 'overlay', size_bytes: 50 * 1024 ** 3, available_bytes: 20 * 1024 ** 3 }],
  systemd: { version: '252', system_state: 'running' },
  listening_ports: [22, 8462],
  sysctl: { 'fs.file-max': '9223372036854775807' },
  tools: { systemctl: true, mv: true, rm: true, chown: true },
  collected_at: at,
  ...over,
});
