// The preflight of a hosts cluster reads the facts its node agents reported: OS, architecture, memory, disks and
// systemd fail the run; stale facts, an absent agent and a single core only warn.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFacts } from '../../../../agent/node/facts';
import type { HostFacts } from '../../../../main/wire/node-agent';
import { testManager, type TestManager } from '../../../support/manager';

describe('host preflight checks', () => {
  let t: TestManager;
  let real: HostFacts;
  beforeAll(async () => {
    t = testManager();
    // The facts of this very machine, read as the agent reads them; systemd as a booted host reports it.
    real = await readFacts();
    real.systemd = { version: '252', system_state: 'running' };
  });
  afterAll(() => t?.close());

  function cluster(name: string, facts: (HostFacts | null)[]): string {
    const c = t.manager.clusters.create({ name, kind: 'hosts' }, 'test');
    facts.forEach((f, i) => {
      const h = t.manager.hosts.add(c.id, { name: `${name}-${i}`, address: `198.18.9.${i + 1}` }, 'test');
      if (f) t.manager.tables.hosts.setReport(h.id, new Date().toISOString(), f, { files: {}, units: {} });
    });
    return c.id;
  }
  const statusOf = (run: { checks: { id: string; status: string }[] }, id: string) => run.checks.find((c) => c.id === id)?.status;

  test('hosts with supported facts pass the blocking checks; no Kubernetes check runs on a hosts cluster', async () => {
    const id = cluster('good', [real, real]);
    const run = await t.manager.preflight.run(id, { trigger: 'on_demand', actor: 'test' });
    for (const c of ['hosts.os', 'hosts.architecture', 'hosts.memory', 'hosts.systemd']) expect(statusOf(run, c), c).toBe('pass');
    // This machine's disk may be full or not: the check judges what it reads, with the numbers as evidence.
    const disks = run.checks.find((c) => c.id === 'hosts.disks')!;
    expect(disks.evidence).toMatchObject({
      path: '/var/lib/navin',
      hosts: [expect.objectContaining({ host: 'good-0' }), expect.anything()],
    });
    // Never connected: the agent check warns, it does not block.
    expect(statusOf(run, 'hosts.agent')).toBe('warn');
    expect(run.checks.some((c) => c.id.startsWith('kubernetes.') || c.id === 'agent.version')).toBe(false);
  });

  test('an unsupported OS, architecture, too little memory or disk, or no systemd fail the run with each host named', async () => {
    const bad: HostFacts = {
      ...real,
      os: { platform: 'linux', distro: 'Alpine Linux', release: '3.19', codename: '' },
      architecture: 'riscv64',
      memory: { total_bytes: 256 * 1024 * 1024, available_bytes: 100 * 1024 * 1024 },
      disks: [{ mount: '/', fs: '/dev/vda', type: 'ext4', size_bytes: 2 ** 30, available_bytes: 100 * 1024 * 1024 }],
      systemd: { version: null, system_state: null },
    };
    const id = cluster('bad', [real, bad, null]);
    const run = await t.manager.preflight.run(id, { trigger: 'on_demand', actor: 'test' });
    expect(run.outcome).toBe('fail');
    for (const c of ['hosts.os', 'hosts.architecture', 'hosts.memory', 'hosts.disks', 'hosts.systemd']) {
      const check = run.checks.find((x) => x.id === c)!;
      expect(check.status, c).toBe('fail');
      expect(check.critical).toBe(true);
      expect(check.reason!.en).toContain('bad-1');
      expect(check.reason!.en).toContain('bad-2 (no facts reported)');
      expect(check.reason!.fr).toContain('bad-1');
    }
    expect(statusOf(run, 'hosts.facts_age')).toBe('warn');
  });

  test('a degraded systemd and a single core only warn', async () => {
    const id = cluster('soft', [{ ...real, systemd: { version: '252', system_state: 'degraded' }, cpu: { ...real.cpu, cores: 1 } }]);
    const run = await t.manager.preflight.run(id, { trigger: 'on_demand', actor: 'test' });
    expect(statusOf(run, 'hosts.systemd')).toBe('warn');
    expect(statusOf(run, 'hosts.cpu')).toBe('warn');
  });

  test('a hosts cluster without hosts fails its blocking checks', async () => {
    const run = await t.manager.preflight.run(cluster('empty', []), { trigger: 'on_demand', actor: 'test' });
    expect(statusOf(run, 'hosts.os')).toBe('fail');
    expect(run.checks.find((c) => c.id === 'hosts.os')!.reason!.en).toContain('no host');
  });
});
