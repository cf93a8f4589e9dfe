// What a node agent observes besides its facts: each managed unit as `systemctl show` prints it, and the host's
// figures from a node exporter scrape or from the kernel's own files.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { parseShow, processFigures } from '../../../agent/node/unit-status';
import { figuresFromExporter, figuresFromKernel, sampleHost } from '../../../agent/node/host-metrics';
import { tempDir } from '../../support/temp-dir';

const SHOW = `Id=navin-etcd.service
LoadState=loaded
ActiveState=active
SubState=running
MainPID=4242
ActiveEnterTimestamp=@1796425805
NRestarts=2
MemoryCurrent=31457280
CPUUsageNSec=1500000000

Id=navin-nats.service
LoadState=loaded
ActiveState=inactive
SubState=dead
MainPID=0
ActiveEnterTimestamp=@1796425000
NRestarts=0
MemoryCurrent=[not set]
CPUUsageNSec=[not set]

Id=navin-gone.service
LoadState=not-found
ActiveState=inactive
SubState=dead
MainPID=0
ActiveEnterTimestamp=
NRestarts=0
MemoryCurrent=18446744073709551615
CPUUsageNSec=18446744073709551615
`;

test('systemctl show: a running unit with its PID, since, restarts and cgroup figures; a stopped one has none', () => {
  const units = parseShow(SHOW);
  expect(units['navin-etcd.service']).toEqual({
    load_state: 'loaded',
    active_state: 'active',
    sub_state: 'running',
    main_pid: 4242,
    active_since: new Date(1796425805 * 1000).toISOString(),
    restarts: 2,
    memory_bytes: 31457280,
    cpu_ns: 1500000000,
  });
  // Stopped by hand: inactive, no PID, no since (its last active time is not an uptime), nothing accounted.
  expect(units['navin-nats.service']).toMatchObject({
    active_state: 'inactive',
    main_pid: null,
    active_since: null,
    memory_bytes: null,
    cpu_ns: null,
  });
  expect(units['navin-gone.service']).toMatchObject({ load_state: 'not-found', memory_bytes: null, cpu_ns: null });
});

const EXPORTER = `# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.
# TYPE node_cpu_seconds_total counter
node_cpu_seconds_total{cpu="0",mode="idle"} 900
node_cpu_seconds_total{cpu="0",mode="user"} 80
node_cpu_seconds_total{cpu="0",mode="system"} 20
node_cpu_seconds_total{cpu="1",mode="idle"} 950
node_cpu_seconds_total{cpu="1",mode="user"} 50
# TYPE node_memory_MemTotal_bytes gauge
node_memory_MemTotal_bytes 8.589934592e+09
# TYPE node_memory_MemAvailable_bytes gauge
node_memory_MemAvailable_bytes 4.294967296e+09
# TYPE node_filesystem_size_bytes gauge
node_filesystem_size_bytes{device="/dev/sda1",fstype="ext4",mountpoint="/"} 1e+11
node_filesystem_size_bytes{device="tmpfs",fstype="tmpfs",mountpoint="/run"} 1e+09
# TYPE node_filesystem_avail_bytes gauge
node_filesystem_avail_bytes{device="/dev/sda1",fstype="ext4",mountpoint="/"} 4e+10
node_filesystem_avail_bytes{device="tmpfs",fstype="tmpfs",mountpoint="/run"} 1e+09
`;

test('a node exporter scrape: CPU counters summed over CPUs and modes, memory, and the root file system', () => {
  expect(figuresFromExporter(EXPORTER)).toEqual({
    cpu: { total_s: 2000, idle_s: 1850, cpus: 2 },
    memory: { total_bytes: 8589934592, available_bytes: 4294967296 },
    filesystem: { mount: '/', size_bytes: 1e11, available_bytes: 4e10 },
  });
  expect(() => figuresFromExporter('# nothing here\n')).toThrow(/node_cpu_seconds_total/);
});

test('the kernel figures: /proc/stat in USER_HZ, MemAvailable, statfs of the root', () => {
  const { path: proc, remove } = tempDir('navin-proc-');
  onTestFinished(remove);
  writeFileSync(
    join(proc, 'stat'),
    'cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 50 0 25 400 25 0 0 0 0 0\ncpu1 50 0 25 400 25 0 0 0 0 0\nintr 1\n',
  );
  writeFileSync(join(proc, 'meminfo'), 'MemTotal:        2048 kB\nMemFree:          512 kB\nMemAvailable:    1024 kB\n');
  const f = figuresFromKernel(proc, proc);
  expect(f.cpu).toEqual({ total_s: 10, idle_s: 8.5, cpus: 2 });
  expect(f.memory).toEqual({ total_bytes: 2048 * 1024, available_bytes: 1024 * 1024 });
  expect(f.filesystem!.size_bytes).toBeGreaterThan(0);
  expect(f.filesystem!.available_bytes).toBeLessThanOrEqual(f.filesystem!.size_bytes);
});

test('an exporter that does not answer: the kernel figures, with why', async () => {
  const s = await sampleHost({ url: 'http://127.0.0.1:9/metrics' });
  expect(s.source).toBe('host');
  expect(s.note).toMatch(/ECONNREFUSED|connect/);
  expect(s.cpu!.total_s).toBeGreaterThan(0);
});

test('a process’s own figures when its cgroup is not accounted: resident memory and CPU time from /proc', () => {
  const own = processFigures(process.pid);
  expect(own.memory_bytes).toBeGreaterThan(1 << 20);
  expect(own.cpu_ns).toBeGreaterThan(0);
  expect(processFigures(2 ** 22 + 7)).toEqual({ memory_bytes: null, cpu_ns: null });
});
