// GET /api/v1/certificates through the console API: the certificates the real CAs issued — a cluster agent's, a
// node agent's, the console's (manager CA) and a service's (the cluster's service CA) — in one list sorted by
// expiry, the service's flagged expiring once the clock is moved to 10 days before its end; filtered by cluster
// and by days; never a key.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { FleetCertificate } from '../../../../main/contract/certificates';
import type { Credentials } from '../../../../main/core/http/router';
import { hostUri } from '../../../../main/wire/node-agent';
import { ManualClock } from '../../../support/clock';
import { describeWithBinaries } from '../../../support/config-parsers';
import { testManager, type TestManager } from '../../../support/manager';
import { tempDir } from '../../../support/temp-dir';
import { addCluster, addHost, opensslCsr } from './certificates-fixture';

const DAY = 86_400_000;

describeWithBinaries('the fleet view of certificates', ['openssl'], () => {
  let t: TestManager;
  let clock: ManualClock;
  let viewer: Credentials;
  let dir: ReturnType<typeof tempDir>;
  let cluster: string;
  let other: string;
  let host: string;
  const keys: string[] = [];

  beforeEach(async () => {
    clock = new ManualClock();
    t = testManager({ clock });
    dir = tempDir('navin-fleet-');
    // A token outlives the clock's jumps of months, where a session would lapse.
    await t.manager.accounts.addUser('vera', 'viewer', 'correct horse battery', 'test');
    viewer = { bearer: t.manager.accounts.tokens.create('vera', { expires: '365d' }, 'test').token };
    const { manager } = t;
    cluster = addCluster(manager.store, 'edge');
    other = addCluster(manager.store, 'core');
    host = addHost(manager.store, cluster, 'h-0', '198.18.7.3');
    const agent = manager.ca.issueClient(other);
    const nodeAgent = manager.ca.issueHostClient(cluster, hostUri(host));
    manager.tables.hosts.bindCertificate(nodeAgent.serial, host);
    const consoleCert = manager.ca.issueServer('console', ['console.example']);
    keys.push(agent.keyPem, nodeAgent.keyPem, consoleCert.keyPem);
    manager.certificates.issue({
      clusterId: cluster,
      hostId: host,
      service: 'etcd',
      hostName: 'h-0',
      addresses: ['198.18.7.3'],
      csrPem: opensslCsr(dir.path).csrPem,
      actor: 'test',
    });
  });
  afterEach(() => {
    t.close();
    dir.remove();
    keys.length = 0;
  });

  const list = async (query = ''): Promise<FleetCertificate[]> => {
    const res = await t.call('GET', `/api/v1/certificates${query}`, undefined, viewer);
    expect(res.status).toBe(200);
    return (res.body as { items: FleetCertificate[] }).items;
  };

  it('lists every certificate of both CAs, the soonest to expire first, each with its kind, issuer and names', async () => {
    const items = await list();
    // The service's 90 days end first; the manager CA's three, issued at the same instant for 397, by serial.
    expect(items.map((c) => c.kind).slice(0, 1)).toEqual(['service']);
    expect(items.map((c) => c.kind).sort()).toEqual(['agent', 'console', 'node-agent', 'service']);
    const order = items.map((c) => [Date.parse(c.not_after), c.serial] as const);
    expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1])));
    const of = (kind: string): FleetCertificate => items.find((c) => c.kind === kind)!;
    const [service, agent, nodeAgent, consoleCert] = [of('service'), of('agent'), of('node-agent'), of('console')];
    const serviceCa = t.manager.certificates.serviceCa(cluster);
    expect(service).toMatchObject({
      cluster_id: cluster,
      host_id: host,
      service: 'etcd',
      sans: ['h-0', '198.18.7.3'],
      issuer: { ca: 'service', serial: serviceCa.serial },
      state: 'issued',
      days_left: 90,
      expiring: false,
    });
    expect(agent).toMatchObject({ cluster_id: other, host_id: null, sans: [`urn:navin:cluster:${other}`], issuer: { ca: 'manager' } });
    expect(nodeAgent).toMatchObject({ cluster_id: cluster, host_id: host, sans: [hostUri(host)], issuer: { ca: 'manager' } });
    expect(consoleCert).toMatchObject({ subject: 'console.example', cluster_id: null, sans: null, state: 'issued' });
    expect(items.every((c) => !c.expiring)).toBe(true);
  });

  it('flags the certificate under 14 days once the clock reaches it, and the filters keep only what is asked', async () => {
    const service = (await list()).find((c) => c.kind === 'service')!;
    clock.set(new Date(Date.parse(service.not_after) - 10 * DAY).toISOString());
    const items = await list();
    expect(items[0]).toMatchObject({ serial: service.serial, days_left: 10, expiring: true, state: 'issued' });
    expect(items.filter((c) => c.expiring).map((c) => c.serial)).toEqual([service.serial]);
    expect((await list('?expiring_within_days=14')).map((c) => c.serial)).toEqual([service.serial]);
    expect((await list(`?cluster_id=${other}`)).map((c) => c.kind)).toEqual(['agent']);

    clock.set(new Date(Date.parse(service.not_after) + DAY).toISOString());
    expect((await list('?expiring_within_days=0'))[0]).toMatchObject({
      serial: service.serial,
      state: 'expired',
      days_left: -1,
      expiring: true,
    });
  });

  it('a revoked certificate is listed as revoked and not flagged; no answer carries a key; a bad query is refused', async () => {
    const service = (await list()).find((c) => c.kind === 'service')!;
    t.manager.certificates.revoke(service.serial, 'test');
    clock.set(new Date(Date.parse(service.not_after) - DAY).toISOString());
    expect((await list()).find((c) => c.serial === service.serial)).toMatchObject({ state: 'revoked', expiring: false });

    const text = JSON.stringify(await list());
    expect(text).not.toMatch(/PRIVATE KEY|sealed|key_pem/i);
    for (const key of keys) expect(text).not.toContain(key.split('\n')[1]);

    expect((await t.call('GET', '/api/v1/certificates?expiring_within_days=soon', undefined, viewer)).status).toBe(400);
    expect((await t.call('GET', '/api/v1/certificates')).status).toBe(401);
  });
});
