// Services installed for real on booted Debian 12 hosts through the console API: etcd (one member, and three
// across three hosts), NATS with JetStream and the node exporter, each fetched from a real OCI registry by digest,
// written, started by systemd, then passing liveness, readiness and its functional test. Then broken by hand
// (unit stopped, wrong port in the config, data dir read-only): the right check turns FAIL with its evidence, and
// a failing functional test still cleans up after itself.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { until } from '../../../support/agent-harness';
import { openConsole } from '../../../support/browser';
import { REPO_ROOT, runCli } from '../../../support/cli';
import { describeHosts, type TestHost } from '../../../support/hosts';
import { operate as operateOn, serviceHosts, sh, type ServiceHosts } from '../../../support/service-hosts';

const ETCD = '3.4.23-1';
const NATS = '2.9.10-1';
const NODE_EXPORTER = '1.5.0-1';

describeHosts('services on booted hosts, installed from the mirror', () => {
  let s: ServiceHosts;
  let single: TestHost;
  let trio: TestHost[];
  let clusterA: string;
  let clusterB: string;

  beforeAll(async () => {
    s = await serviceHosts(
      [1, 3],
      [
        ['etcd', ETCD],
        ['nats', NATS],
        ['node-exporter', NODE_EXPORTER],
      ],
    );
    [single, ...trio] = s.hosts as [TestHost, ...TestHost[]];
    [clusterA, clusterB] = s.clusters as [string, string];
  }, 600_000);

  afterAll(async () => {
    await s?.close();
  }, 180_000);

  /** Starts an operation and waits for it to end; returns it. */
  const operate = (method: 'POST' | 'PUT', path: string, body: unknown): Promise<any> => operateOn(s.h, method, path, body);

  const service = async (cluster: string, name: string): Promise<any> =>
    (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/${name}`)).body;
  const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

  function expectAllPass(view: any, hostIds: string[]): void {
    expect(view.state).toBe('running');
    for (const id of hostIds) expect(view.checks.liveness[id].outcome.status, JSON.stringify(view.checks.liveness[id])).toBe('pass');
    expect(view.checks.readiness.outcome.status, JSON.stringify(view.checks.readiness)).toBe('pass');
    expect(view.checks.functional.outcome.status, JSON.stringify(view.checks.functional)).toBe('pass');
  }

  test('etcd on one host: fetched from the mirror by digest, run by systemd, live, ready and functional', async () => {
    const op = await operate('POST', `/api/v1/clusters/${clusterA}/services`, { service: 'etcd', version: ETCD, hosts: [single.name] });
    expect(op.state, JSON.stringify(op)).toBe('succeeded');
    expect(op.progress.done).toBe(op.progress.total);
    // Every task of both phases, in order: fetch, files, unit, systemd, liveness; then readiness and the functional test.
    const tasks = op.phases.flatMap((p: any) => p.plans.flatMap((plan: any) => plan.tasks));
    expect(tasks.map((t: any) => t.id)).toEqual([
      'fetch:etcd',
      'fetch:etcdctl',
      'write:config',
      'write:unit',
      'daemon-reload',
      'enable',
      'restart',
      'liveness',
      'watch',
      'readiness',
      'functional',
    ]);
    const fetched = tasks.find((t: any) => t.id === 'fetch:etcd');
    expect(fetched.output.digest).toBe(`sha256:${sha256('/usr/bin/etcd')}`);
    expect(fetched.output.url).toContain(`${s.registry.host}/v2/navin/etcd/etcd/blobs/sha256:`);
    const view = await service(clusterA, 'etcd');
    expectAllPass(view, [s.ids.get(single.name)!]);
    expect(view.checks.functional.outcome.steps.map((x: any) => x.name)).toEqual(expect.arrayContaining(['put', 'get', 'delete']));
    // What systemd runs is the binary from the mirror, as the dynamic user the unit names.
    expect((await sh(single, 'systemctl is-active navin-etcd.service')).trim()).toBe('active');
    expect((await sh(single, `sha256sum /opt/navin/etcd/${ETCD}/etcd`)).split(' ')[0]).toBe(sha256('/usr/bin/etcd'));
    const unit = await sh(single, 'systemctl show navin-etcd.service -p User -p DynamicUser');
    expect(unit).toContain('User=navin-etcd');
    expect(unit).toContain('DynamicUser=yes');
    expect(Number((await sh(single, 'ps -o uid= -C etcd')).trim())).toBeGreaterThan(0);
  });

  test('NATS with JetStream by the API; the node exporter beside it from the console in Chromium, its plan followed live', async () => {
    const nats = await operate('POST', `/api/v1/clusters/${clusterA}/services`, { service: 'nats', version: NATS, hosts: [single.name] });
    expect(nats.state, JSON.stringify(nats)).toBe('succeeded');
    const browser = await openConsole(s.h.manager.url, { name: 'alice', password: 'correct horse battery' });
    try {
      const { page } = browser;
      await page.goto(`${new URL(s.h.manager.url).origin}/#/clusters/${clusterA}/services`);
      const tab = page.getByTestId('cluster-services');
      await expect.poll(() => tab.getByTestId('service-row').count(), { timeout: 15_000 }).toBe(2);
      const form = tab.getByTestId('install-service-form');
      await form.getByTestId('install-service').selectOption('node-exporter');
      await form.getByTestId('install-version').selectOption(NODE_EXPORTER);
      await form.getByTestId(`install-host-${single.name}`).check();
      await form.getByTestId('install-service-submit').click();
      const operation = tab.getByTestId('service-operation');
      await operation.getByTestId('operation-state').and(page.locator('[data-state="succeeded"]')).waitFor({ timeout: 120_000 });
      const bar = operation.getByTestId('operation-progress');
      expect(await bar.getAttribute('value')).toBe(await bar.getAttribute('max'));
      // Each task is on screen with its status, the functional test's among them.
      await expect.poll(() => operation.getByText('functional', { exact: false }).count()).toBeGreaterThan(0);
      await page.screenshot({ path: join(REPO_ROOT, 'test-results', 'screenshots', 'services-install-en.png'), fullPage: true });
      // Every action of a row is on screen, none cut off by the table's edge.
      const edge = (await tab.boundingBox())!;
      const buttons = tab.locator('[data-testid="service-row"][data-service="node-exporter"] .row-actions button');
      expect(await buttons.count()).toBe(6);
      for (const b of await buttons.all()) {
        const box = (await b.boundingBox())!;
        expect(box.x + box.width, await b.innerText()).toBeLessThanOrEqual(edge.x + edge.width);
      }
      await expect
        .poll(() => tab.locator('[data-testid="service-row"][data-service="node-exporter"][data-state="running"]').count())
        .toBe(1);
    } finally {
      await browser.close();
    }
    const natsView = await service(clusterA, 'nats');
    expectAllPass(natsView, [s.ids.get(single.name)!]);
    expect(natsView.checks.readiness.outcome.evidence).toMatchObject({ jsz: expect.anything() });
    expect(natsView.checks.functional.outcome.evidence.stream).toMatch(/^NAVIN_SMOKE_/);
    const ne = await service(clusterA, 'node-exporter');
    expectAllPass(ne, [s.ids.get(single.name)!]);
  });

  test('etcd as a three-member cluster across three hosts', async () => {
    const op = await operate('POST', `/api/v1/clusters/${clusterB}/services`, {
      service: 'etcd',
      version: ETCD,
      hosts: trio.map((h) => h.name),
    });
    expect(op.state, JSON.stringify(op.message)).toBe('succeeded');
    // The members started together, one plan per host in the same phase.
    expect(op.phases[0].plans).toHaveLength(3);
    const view = await service(clusterB, 'etcd');
    expectAllPass(
      view,
      trio.map((h) => s.ids.get(h.name)!),
    );
    const members = view.checks.readiness.outcome.evidence.members as unknown[];
    expect(members).toHaveLength(3);
    const list = await sh(trio[0]!, `/opt/navin/etcd/${ETCD}/etcdctl --endpoints=http://${trio[0]!.address}:2379 member list`);
    for (const h of trio) expect(list).toContain(h.name);
  });

  test('a signed acceptance report runs every check now: each service line PASS, verified offline', async () => {
    for (const [cluster, services, hostsOf] of [
      [clusterA, ['etcd', 'nats', 'node-exporter'], [single]],
      [clusterB, ['etcd'], trio],
    ] as const) {
      const r = await s.h.api('POST', `/api/v1/clusters/${cluster}/acceptance`);
      expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(201);
      const lines = r.body.payload.lines as { id: string; status: string; evidence: any }[];
      const ids = services.flatMap((svc) => [
        `service.${svc}.source`,
        ...hostsOf.map((h) => `service.${svc}.liveness.${h.name}`),
        `service.${svc}.readiness`,
        `service.${svc}.functional`,
      ]);
      for (const id of ids)
        expect(lines.find((l) => l.id === id)?.status, `${id}: ${JSON.stringify(lines.find((l) => l.id === id))}`).toBe('PASS');
      // The install's offline source: each artifact by the digest the catalog pins, from the mirror.
      const source = lines.find((l) => l.id === `service.${services[0]}.source`)!;
      expect(source.evidence.artifacts.every((a: any) => a.url.startsWith(s.registry.url))).toBe(true);
      const file = join(s.h.dir, `report-${cluster}.json`);
      const pem = join(s.h.dir, 'manager.pem');
      writeFileSync(file, JSON.stringify(r.body));
      writeFileSync(pem, (await s.h.api('GET', '/api/v1/keys/manager.pem')).body);
      expect(runCli(['verify-report', '--file', file, '--public-key', pem]).status).toBe(0);
    }
  });

  test('a unit stopped by hand turns its liveness FAIL with the evidence; starting it again turns it back', async () => {
    await sh(single, 'systemctl stop navin-node-exporter.service');
    // The agent watches the instance on its own: its liveness turns FAIL within one interval, no operation asked.
    const watched = await until(
      'liveness FAIL reported by the agent',
      async () => {
        const l = (await service(clusterA, 'node-exporter')).checks.liveness[s.ids.get(single.name)!];
        return l.outcome.status === 'fail' ? l : undefined;
      },
      45_000,
      500,
    );
    expect(watched.outcome.error.code).toBe('unreachable');
    const op = await operate('POST', `/api/v1/clusters/${clusterA}/services/node-exporter/actions`, { action: 'check' });
    expect(op.state).toBe('failed');
    expect(op.code).toBe('check_failed');
    const view = await service(clusterA, 'node-exporter');
    const live = view.checks.liveness[s.ids.get(single.name)!].outcome;
    expect(live.status).toBe('fail');
    expect(live.error.code).toBe('unreachable');
    expect(JSON.stringify(live.evidence)).toContain('9100');
    const started = await operate('POST', `/api/v1/clusters/${clusterA}/services/node-exporter/actions`, { action: 'start' });
    expect(started.state).toBe('succeeded');
    expectAllPass(await service(clusterA, 'node-exporter'), [s.ids.get(single.name)!]);
  });

  test('a wrong port written into the config by hand fails liveness; the console’s configuration puts it back', async () => {
    await sh(single, "sed -i 's/:2379/:2479/g' /etc/navin/etcd/etcd.conf.yml && systemctl restart navin-etcd.service");
    const op = await operate('POST', `/api/v1/clusters/${clusterA}/services/etcd/actions`, { action: 'check' });
    expect(op.state).toBe('failed');
    const live = (await service(clusterA, 'etcd')).checks.liveness[s.ids.get(single.name)!].outcome;
    expect(live.status).toBe('fail');
    expect(live.error.code).toBe('unreachable');
    expect(JSON.stringify(live.evidence)).toContain('2379');
    // The configuration apply rewrites the file from the catalog and restarts: the keys written before are still there.
    const realigned = await operate('PUT', `/api/v1/clusters/${clusterA}/services/etcd/config`, { config: {} });
    expect(realigned.state, JSON.stringify(realigned.message)).toBe('succeeded');
    expect(await sh(single, 'grep -c ":2379" /etc/navin/etcd/etcd.conf.yml')).not.toBe('0\n');
    expectAllPass(await service(clusterA, 'etcd'), [s.ids.get(single.name)!]);
  });

  test('a read-only JetStream store fails the functional test, which still removes its stream', async () => {
    const store = '/var/lib/private/navin/nats';
    await sh(single, `chmod -R a-w ${store}`);
    try {
      const op = await operate('POST', `/api/v1/clusters/${clusterA}/services/nats/actions`, { action: 'functional_test' });
      expect(op.state).toBe('failed');
      expect(op.code).toBe('check_failed');
      const fn = (await service(clusterA, 'nats')).checks.functional.outcome;
      expect(fn.status).toBe('fail');
      expect(fn.steps.find((x: any) => x.name === 'stream create')?.status).toBe('fail');
    } finally {
      await sh(single, `chmod -R u+w ${store}`);
    }
    // Checked afterwards, through the server's own monitoring: no stream of the test is left.
    const jsz = (await (await fetch(`http://${single.address}:8222/jsz?streams=true`)).json()) as { streams?: number };
    expect(jsz.streams ?? 0).toBe(0);
    const again = await operate('POST', `/api/v1/clusters/${clusterA}/services/nats/actions`, { action: 'functional_test' });
    expect(again.state).toBe('succeeded');
  });

  test('an uninstall removes the unit, config and binaries but keeps the data; an install right after finds the ports free', async () => {
    const ne = await operate('POST', `/api/v1/clusters/${clusterA}/services/node-exporter/actions`, { action: 'uninstall' });
    expect(ne.state, JSON.stringify(ne.message)).toBe('succeeded');
    expect((await s.h.api('GET', `/api/v1/clusters/${clusterA}/services/node-exporter`)).body.error.code).toBe('service_not_installed');
    expect((await single.exec(['test', '-e', '/etc/systemd/system/navin-node-exporter.service'])).code).not.toBe(0);
    expect((await single.exec(['test', '-e', `/opt/navin/node-exporter/${NODE_EXPORTER}/node-exporter`])).code).not.toBe(0);
    // Judged on facts asked for at the install, not on the last minute's report that still showed the port taken.
    const again = await operate('POST', `/api/v1/clusters/${clusterA}/services`, {
      service: 'node-exporter',
      version: NODE_EXPORTER,
      hosts: [single.name],
    });
    expect(again.state, JSON.stringify(again.message)).toBe('succeeded');
    // An install over a running service is refused.
    const twice = await s.h.api('POST', `/api/v1/clusters/${clusterA}/services`, {
      service: 'node-exporter',
      version: NODE_EXPORTER,
      hosts: [single.name],
    });
    expect(twice.body.error.code).toBe('service_installed');
  });
});
