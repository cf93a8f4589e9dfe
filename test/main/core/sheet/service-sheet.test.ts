// The sheet where nothing runs on hosts: a service not installed says why on every tab its agents would fill,
// and a Kubernetes cluster's component is read from the status its agent reported (never from the desired spec);
// the metrics turn two samples' counters into rates and keep a day of them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';
import { ManualClock } from '../../../support/clock';
import { httpsCall } from '../../../support/https-call';
import { startTestGateway } from '../../../support/test-gateway';
import { NODE_AGENT_PATHS } from '../../../../main/wire/node-agent';
import { metricsPoint } from '../../../../main/core/sheet/service-sheet';
import { hostFacts } from '../../../support/host-facts';

describe('the component sheet', () => {
  let t: TestManager;
  let admin: Awaited<ReturnType<TestManager['login']>>;
  beforeAll(async () => {
    t = testManager();
    admin = await t.login('ada', 'admin');
  });
  afterAll(() => t?.close());

  test('a catalog service not installed on a hosts cluster: nothing observed, and the reason on each tab', async () => {
    const c = t.manager.clusters.create({ name: 'plain-hosts', kind: 'hosts' }, 'test');
    const r = await t.call('GET', `/api/v1/clusters/${c.id}/services/etcd/sheet`, undefined, admin);
    expect(r.status).toBe(200);
    const sheet = r.body as any;
    expect(sheet.overview).toMatchObject({ state: 'not_observed', version: null, instances: { total: 0, running: 0 } });
    for (const tab of ['instances', 'configuration', 'logs', 'metrics', 'operations', 'upgrade', 'audit'])
      expect(sheet.unobserved[tab], tab).toBe('not_installed');
    // etcd keeps data: its Backups tab is not one "with nothing to back up".
    expect(sheet.unobserved.backups).toBeUndefined();
    expect(
      (await t.call('GET', `/api/v1/clusters/${c.id}/services/node-exporter/sheet`, undefined, admin).then((x) => x.body as any)).unobserved
        .backups,
    ).toBe('not_stateful');
    expect((await t.call('GET', `/api/v1/clusters/${c.id}/services/nope/sheet`, undefined, admin)).status).toBe(404);
    const metrics = await t.call('GET', `/api/v1/clusters/${c.id}/services/etcd/metrics?minutes=0`, undefined, admin);
    expect(metrics.status).toBe(400);
  });

  test('a Kubernetes component: its state from the status the agent reported, the other tabs saying why', async () => {
    const c = t.manager.clusters.create({ name: 'kube', kind: 'kubernetes' }, 'test');
    const at = new Date().toISOString();
    t.manager.tables.commands.setDesiredState(c.id, 1, { cache: { component: 'nats', version: '2.9.10-1', replicas: 3 } }, at);
    let sheet = (await t.call('GET', `/api/v1/clusters/${c.id}/services/cache/sheet`, undefined, admin)).body as any;
    // Desired but not yet reported: not observed, whatever the spec asks.
    expect(sheet.overview).toMatchObject({ state: 'not_observed', version: null });
    expect(sheet.unobserved.overview).toBe('no_report_yet');
    t.manager.tables.clusterAccess.insertSnapshot(c.id, at, 'agent', {
      observed_components: { cache: { spec: { component: 'nats', version: '2.9.10-1' }, status: { phase: 'Applied', ready: '1/3' } } },
    });
    sheet = (await t.call('GET', `/api/v1/clusters/${c.id}/services/cache/sheet`, undefined, admin)).body as any;
    expect(sheet).toMatchObject({ cluster_kind: 'kubernetes', title: 'NATS', stateful: true });
    expect(sheet.overview).toMatchObject({ state: 'degraded', version: '2.9.10-1', instances: { total: 3, running: 1 } });
    expect(sheet.unobserved).toMatchObject({
      logs: 'kubernetes_no_logs',
      metrics: 'kubernetes_no_metrics',
      instances: 'kubernetes_no_instances',
    });
    expect(sheet.unobserved.overview).toBeUndefined();
    expect((await t.call('GET', `/api/v1/clusters/${c.id}/services/cache/metrics`, undefined, admin)).body).toMatchObject({
      unobserved: 'kubernetes_no_metrics',
    });
  });

  test('a report whose units or metrics are malformed is refused 400 by the gateway, and nothing of it is stored', async () => {
    const { gateway } = await startTestGateway(t, { hosts: t.manager.hostCommands });
    try {
      const c = t.manager.clusters.create({ name: 'reporting', kind: 'hosts' }, 'test');
      const h = t.manager.hosts.add(c.id, { name: 'r-0', address: '198.18.9.9' }, 'test');
      const identity = t.manager.hostIdentities.issue(h.id, { gateway_url: 'https://localhost:8462' }, 'test');
      const post = (body: unknown) =>
        httpsCall(gateway.url, NODE_AGENT_PATHS.report, {
          body: JSON.stringify(body),
          ca: identity.files['ca.crt'],
          cert: identity.files['tls.crt'],
          key: identity.files['tls.key'],
          servername: 'localhost',
        });
      const facts = hostFacts({ hostname: 'r-0' });
      const unit = {
        load_state: 'loaded',
        active_state: 'active',
        sub_state: 'running',
        main_pid: 1,
        active_since: null,
        restarts: 0,
        memory_bytes: 1,
        cpu_ns: 1,
      };
      for (const bad of [
        { units: { 'sshd.service': unit } },
        { units: { 'navin-etcd.service': { ...unit, memory_bytes: -1 } } },
        { units: { 'navin-etcd.service': { ...unit, active_since: 'yesterday' } } },
        { metrics: { at: 'x', source: 'guess', cpu: null, memory: null, filesystem: null } },
        { metrics: { at: 'x', source: 'host', cpu: { total_s: 'many', idle_s: 1, cpus: 1 }, memory: null, filesystem: null } },
        // Facts the preflight, the acceptance and the install gates would read and trip on.
        { facts: {} },
        { facts: { ...facts, os: 'linux' } },
        { facts: { ...facts, disks: [{ mount: '/', size_bytes: 'big' }] } },
      ]) {
        const r = await post({ agent_version: '1', facts, managed: { files: {}, units: {} }, ...bad });
        expect(r.status, JSON.stringify(bad)).toBe(400);
      }
      expect(t.manager.tables.hosts.get(h.id)!.facts).toBeNull();
      expect(t.manager.tables.hostMetrics.since(h.id, '2000-01-01T00:00:00Z')).toEqual([]);
      const good = await post({
        agent_version: '1',
        facts,
        managed: { files: {}, units: {} },
        units: { 'navin-etcd.service': unit },
        metrics: { at: 'x', source: 'host', cpu: { total_s: 2, idle_s: 1, cpus: 1 }, memory: null, filesystem: null },
      });
      expect(good.status).toBe(200);
      expect(t.manager.tables.hosts.get(h.id)!.units).toEqual({ 'navin-etcd.service': unit });
      expect(t.manager.tables.hostMetrics.since(h.id, '2000-01-01T00:00:00Z')).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });
});

describe('metrics from samples', () => {
  test('CPU busy and the unit CPU from two samples; a counter gone back (a reboot) gives no rate; a day is kept', () => {
    const clock = new ManualClock(Date.parse('2026-12-04T10:00:00Z'));
    const t = testManager({ clock });
    try {
      const c = t.manager.clusters.create({ name: 'm', kind: 'hosts' }, 'test');
      const h = t.manager.hosts.add(c.id, { name: 'm-0', address: '198.18.9.10' }, 'test');
      const report = (total: number, idle: number, cpuNs: number) =>
        t.manager.hostCommands.recordReport(h.id, {
          agent_version: '1',
          facts: {} as any,
          managed: { files: {}, units: {} },
          units: {
            'navin-etcd.service': {
              load_state: 'loaded',
              active_state: 'active',
              sub_state: 'running',
              main_pid: 10,
              active_since: null,
              restarts: 0,
              memory_bytes: 1000,
              cpu_ns: cpuNs,
            },
          },
          metrics: {
            at: '2001-01-01T00:00:00Z',
            source: 'node_exporter',
            cpu: { total_s: total, idle_s: idle, cpus: 2 },
            memory: { total_bytes: 100, available_bytes: 40 },
            filesystem: { mount: '/', size_bytes: 1000, available_bytes: 250 },
          },
        });
      report(1000, 900, 0);
      clock.advance(10_000);
      report(1020, 905, 5e9); // 20 s of CPU time of which 5 idle: 75 % busy; the unit used 5 s of CPU in 10 s.
      clock.advance(10_000);
      report(10, 5, 1e9); // a reboot: the counters start again
      const samples = t.manager.tables.hostMetrics.since(h.id, '2026-12-04T00:00:00Z');
      // Timed by the manager's clock, not the host's.
      expect(samples.map((x) => x.at)).toEqual(['2026-12-04T10:00:00.000Z', '2026-12-04T10:00:10.000Z', '2026-12-04T10:00:20.000Z']);
      const points = samples.map((x, i) => metricsPoint(samples[i - 1], x, 'navin-etcd.service'));
      expect(points[0]).toMatchObject({
        cpu_busy: null,
        unit_cpu: null,
        memory_used_bytes: 60,
        fs_used_bytes: 750,
        unit_memory_bytes: 1000,
      });
      expect(points[1]!.cpu_busy).toBeCloseTo(0.75);
      expect(points[1]!.unit_cpu).toBeCloseTo(0.5);
      expect(points[2]).toMatchObject({ cpu_busy: null, unit_cpu: null });
      clock.advance(25 * 3600_000);
      report(20, 10, 2e9);
      // The day-old samples went with the next report.
      expect(t.manager.tables.hostMetrics.since(h.id, '2026-12-01T00:00:00Z')).toHaveLength(1);
    } finally {
      t.close();
    }
  });
});
