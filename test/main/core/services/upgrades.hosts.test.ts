// Upgrades on three booted hosts, canary first, with the rollback sealed before anything runs. Debian ships one
// version of each service, so the versions here are packaging revisions of the same upstream binary (etcd
// 3.4.23-1 → -2 turns on periodic compaction; node exporter 1.5.0-1 → -2 turns a collector off), not two
// upstream releases. This test's own catalog adds node exporter 1.5.0-3, broken on purpose (its file-system
// collector off), whose functional test fails on the canary.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeHosts, type TestHost } from '../../../support/hosts';
import { copyCatalog, installServices, operate as operateOn, serviceHosts, sh, type ServiceHosts } from '../../../support/service-hosts';
import { tempDir } from '../../../support/temp-dir';

const BROKEN = `
  - version: 1.5.0-3
    upstream: 1.5.0
    notes: Broken on purpose for the canary test, its file-system collector off.
    settings:
      collector_flags: "--no-collector.filesystem"
    artifacts:
      - name: node-exporter
        description: the node exporter
        mode: "0755"
        platforms:
          amd64:
            digest: sha256:67155e19b20caafc09c92e4dcddd74ae264c634b49f04791597ff81388bd2e91
            size: 13703864
            source: { debian: { package: prometheus-node-exporter, version: 1.5.0-1+b6, path: /usr/bin/prometheus-node-exporter } }
    upgrade:
      from: [1.5.0-1, 1.5.0-2]
      stateful: false
      migrations: []
      rollback: { possible: true }
`;

describeHosts('upgrades canary first, rolled back, on booted hosts', () => {
  const catalogDir = tempDir('navin-upgrade-catalog-');
  let s: ServiceHosts;
  let hosts: TestHost[];
  let cluster: string;

  beforeAll(async () => {
    copyCatalog(catalogDir.path, { 'node-exporter.yaml': (text) => `${text.trimEnd()}\n${BROKEN}` });
    s = await serviceHosts(
      [3],
      [
        ['etcd', '3.4.23-1'],
        ['etcd', '3.4.23-2'],
        ['node-exporter', '1.5.0-1'],
        ['node-exporter', '1.5.0-2'],
        ['node-exporter', '1.5.0-3'],
      ],
      { catalogDir: catalogDir.path },
    );
    hosts = s.hosts;
    cluster = s.clusters[0]!;
    await installServices(
      s.h,
      cluster,
      [
        ['etcd', '3.4.23-1'],
        ['node-exporter', '1.5.0-1'],
      ],
      hosts.map((h) => h.name),
    );
  }, 600_000);

  afterAll(async () => {
    await s?.close();
    catalogDir.remove();
  }, 180_000);

  const operate = (method: 'POST' | 'PUT', path: string, body: unknown): Promise<any> => operateOn(s.h, method, path, body);

  const etcdctl = (args: string): Promise<string> =>
    sh(
      hosts[0]!,
      `ETCDCTL_API=3 /opt/navin/etcd/3.4.23-1/etcdctl --endpoints=${hosts.map((h) => `http://${h.address}:2379`).join(',')} ${args}`,
    );
  const keys = async (): Promise<string[]> => (await etcdctl('get --prefix upgrade-test/ --keys-only')).split('\n').filter(Boolean).sort();
  const version = async (service: string): Promise<string> =>
    (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/${service}`)).body.version;
  /** Which version's binary each host's unit runs. */
  const running = (service: string): Promise<string[]> =>
    Promise.all(
      hosts.map(async (h) => /\/opt\/navin\/[a-z-]+\/([^/]+)\//.exec(await sh(h, `systemctl cat navin-${service}.service`))![1]!),
    );

  test('etcd, three members: upgraded canary first, then rolled back; every key written before is there after each step', async () => {
    const written = Array.from({ length: 50 }, (_, i) => `upgrade-test/k${String(i).padStart(2, '0')}`);
    for (const k of written) await etcdctl(`put ${k} v`);
    const info = (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/etcd/upgrade?to=3.4.23-2`)).body;
    expect(info).toMatchObject({ compatible: true, from: '3.4.23-1', to: '3.4.23-2', stateful: true, irreversible: [] });

    const up = await operate('POST', `/api/v1/clusters/${cluster}/services/etcd/upgrade`, { version: '3.4.23-2' });
    expect(up.state, up.message).toBe('succeeded');
    // etcd keeps data: a snapshot first (from the first member, under a set of its own); then the canary alone (its
    // functional test included), the others one by one, then the service checks.
    expect(up.phases.map((p: any) => [p.name, p.hosts])).toEqual([
      ['backup', [hosts[0]!.name]],
      ['canary', [hosts[0]!.name]],
      ['host 2 of 3', [hosts[1]!.name]],
      ['host 3 of 3', [hosts[2]!.name]],
      ['readiness and functional test', [hosts[0]!.name]],
    ]);
    const sets = (await s.h.api('GET', `/api/v1/clusters/${cluster}/service-backups`)).body.items;
    expect(sets).toHaveLength(1);
    expect(sets[0]).toMatchObject({ reason: 'upgrade', state: 'succeeded', services: ['etcd'] });
    expect(sets[0].backups[0]).toMatchObject({ service: 'etcd', version: '3.4.23-1' });
    expect(up.phases[1].plans[0].tasks.map((t: any) => t.id)).toContain('functional');
    const started = up.phases.slice(1, 4).map((p: any) => p.plans[0].tasks.find((t: any) => t.id === 'start').finished_at);
    expect([...started].sort()).toEqual(started);
    expect(await version('etcd')).toBe('3.4.23-2');
    expect(await running('etcd')).toEqual(['3.4.23-2', '3.4.23-2', '3.4.23-2']);
    expect(await keys()).toEqual(written);
    // A configuration changed on the new version: configuration version 2.
    const configured = await operate('PUT', `/api/v1/clusters/${cluster}/services/etcd/config`, {
      config: { quota_backend_bytes: 4294967296 },
    });
    expect(configured.state, configured.message).toBe('succeeded');
    expect(await sh(hosts[2]!, 'cat /etc/navin/etcd/etcd.conf.yml')).toContain('quota-backend-bytes: 4294967296');

    const back = await operate('POST', `/api/v1/clusters/${cluster}/services/etcd/rollback`, {});
    expect(back.state, back.message).toBe('succeeded');
    expect(await version('etcd')).toBe('3.4.23-1');
    expect(await running('etcd')).toEqual(['3.4.23-1', '3.4.23-1', '3.4.23-1']);
    expect(await keys()).toEqual(written);
    // The configuration that stood when the upgrade started is back, recorded as a new version restored from it.
    const versions = (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/etcd/config-versions`)).body.items;
    expect(versions.map((v: any) => [v.number, v.config, v.restored_from])).toEqual([
      [3, {}, 1],
      [2, { quota_backend_bytes: 4294967296 }, null],
      [1, {}, null],
    ]);
    expect((await s.h.api('GET', `/api/v1/clusters/${cluster}/services/etcd`)).body).toMatchObject({ config: {}, config_version: 3 });
    expect(await sh(hosts[2]!, 'cat /etc/navin/etcd/etcd.conf.yml')).toContain('quota-backend-bytes: 2147483648');
    // There is no upgrade to undo any more.
    const again = await s.h.api('POST', `/api/v1/clusters/${cluster}/services/etcd/rollback`, {});
    expect(again.body.error.code).toBe('rollback_refused');
  });

  test('node exporter upgraded canary first and rolled back', async () => {
    const up = await operate('POST', `/api/v1/clusters/${cluster}/services/node-exporter/upgrade`, { version: '1.5.0-2' });
    expect(up.state, up.message).toBe('succeeded');
    expect(await running('node-exporter')).toEqual(['1.5.0-2', '1.5.0-2', '1.5.0-2']);
    expect(await sh(hosts[1]!, 'systemctl cat navin-node-exporter.service')).toContain('--no-collector.wifi');
    const back = await operate('POST', `/api/v1/clusters/${cluster}/services/node-exporter/rollback`, {});
    expect(back.state, back.message).toBe('succeeded');
    expect(await running('node-exporter')).toEqual(['1.5.0-1', '1.5.0-1', '1.5.0-1']);
  });

  test('a canary that fails its functional test is rolled back by its sealed plan; the other hosts are never touched', async () => {
    const units = await Promise.all(hosts.slice(1).map((h) => sh(h, 'sha256sum /etc/systemd/system/navin-node-exporter.service')));
    const op = await operate('POST', `/api/v1/clusters/${cluster}/services/node-exporter/upgrade`, { version: '1.5.0-3' });
    expect(op.state).toBe('failed');
    expect(op.code).toBe('check_failed');
    expect(op.message).toContain(`task functional failed on ${hosts[0]!.name}`);
    expect(op.message).toContain('rolled back to 1.5.0-1');
    // Only the canary's phase ran, then the rollback on the canary alone; the other hosts' phases never started.
    const ran = op.phases.filter((p: any) => p.plans.length > 0).map((p: any) => [p.name, p.hosts]);
    expect(ran).toEqual([
      ['canary', [hosts[0]!.name]],
      ['rollback (sealed with the upgrade)', [hosts[0]!.name]],
    ]);
    expect(await version('node-exporter')).toBe('1.5.0-1');
    expect(await running('node-exporter')).toEqual(['1.5.0-1', '1.5.0-1', '1.5.0-1']);
    expect(await Promise.all(hosts.slice(1).map((h) => sh(h, 'sha256sum /etc/systemd/system/navin-node-exporter.service')))).toEqual(units);
    // The rollback was signed when the upgrade started, not when it failed: its audit row says it was sealed.
    const audit = (await s.h.api('GET', `/api/v1/audit?cluster_id=${cluster}&action=command.plan.execute`)).body.items as any[];
    expect(audit.filter((r) => r.details.sealed === true)).toHaveLength(1);
    expect((await s.h.api('GET', `/api/v1/clusters/${cluster}/services/node-exporter`)).body.state).toBe('running');
  });
});
