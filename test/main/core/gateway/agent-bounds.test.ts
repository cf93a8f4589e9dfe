// What one agent can make the manager store is bounded: its inventory snapshots keep the latest and a short
// history, a receipt sent again and again is kept a few times, and each certificate is rate-limited (429 with
// Retry-After) without slowing the others.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Gateway } from '../../../../main/core/gateway/gateway';
import { SNAPSHOTS_KEPT } from '../../../../main/core/clusters/cluster-access-tables';
import { RECEIPTS_KEPT } from '../../../../main/core/commands/commands-tables';
import { GATEWAY_PATHS } from '../../../../main/wire/protocol';
import { NODE_AGENT_PATHS } from '../../../../main/wire/node-agent';
import { METRICS_SPACING_MS } from '../../../../main/core/hosts/host-commands';
import { hostFacts } from '../../../support/host-facts';
import type { ClientCert } from '../../../support/gateway-client';
import { httpsCall } from '../../../support/https-call';
import { testManager, type TestManager } from '../../../support/manager';
import { agentCert, startTestGateway } from '../../../support/test-gateway';

let t: TestManager;
beforeAll(() => {
  t = testManager();
});
afterAll(() => t?.close());

const post = (gw: Gateway, cert: ClientCert, path: string, body: unknown) =>
  httpsCall(gw.url, path, { body: JSON.stringify(body), ca: cert.caPem, cert: cert.certPem, key: cert.keyPem, servername: 'localhost' });
const report = (n: number) => ({ replica: 'r1', agent_version: '1', leader: true, inventory: { n } });

describe('what an agent stores', () => {
  let gw: Gateway;
  beforeAll(async () => {
    ({ gateway: gw } = await startTestGateway(t, { agentRateLimit: { burst: 10_000, perMinute: 10_000 } }));
  });
  afterAll(() => gw?.close());

  test('inventory reports keep the latest and a bounded history, whatever their number', async () => {
    const id = t.manager.clusters.create({ name: 'reports' }, 'test').id;
    const cert = agentCert(t, id);
    const n = SNAPSHOTS_KEPT * 2 + 5;
    for (let i = 1; i <= n; i++) expect((await post(gw, cert, GATEWAY_PATHS.report, report(i))).status).toBe(200);
    expect(t.manager.tables.clusterAccess.snapshotCount(id)).toBe(SNAPSHOTS_KEPT);
    expect(t.manager.tables.clusterAccess.latestAgentSnapshot(id)?.data).toMatchObject({ n });
  });

  test('a receipt sent again and again is stored a bounded number of times, and the command stays closed', async () => {
    const id = t.manager.clusters.create({ name: 'receipts' }, 'test').id;
    const cert = agentCert(t, id);
    const cmd = t.manager.commands.issue(id, 'inventory.report', {}, 'test');
    const receipt = { command_id: cmd.id, status: 'succeeded', result: {}, executed_at: new Date().toISOString(), replica: 'r1' };
    for (let i = 0; i < RECEIPTS_KEPT * 3; i++)
      expect((await post(gw, cert, GATEWAY_PATHS.receipts, { receipts: [receipt] })).json).toEqual({ accepted: [cmd.id] });
    const kept = t.manager.tables.commands.receipts(cmd.id);
    expect(kept).toHaveLength(RECEIPTS_KEPT);
    expect(t.manager.tables.commands.get(cmd.id)?.state).toBe('succeeded');
  });
});

describe("a node agent's reports", () => {
  let gw: Gateway;
  beforeAll(async () => {
    ({ gateway: gw } = await startTestGateway(t, { hosts: t.manager.hostCommands, agentRateLimit: { burst: 10_000, perMinute: 10_000 } }));
  });
  afterAll(() => gw?.close());

  test('reports in a loop add host figures at most once every few seconds', async () => {
    const c = t.manager.clusters.create({ name: 'figures', kind: 'hosts' }, 'test');
    const hostId = t.manager.hosts.add(c.id, { name: 'f-0', address: '198.18.9.40' }, 'test').id;
    const identity = t.manager.hostIdentities.issue(hostId, { gateway_url: 'https://localhost:8462' }, 'test');
    const cert = { certPem: identity.files['tls.crt'], keyPem: identity.files['tls.key'], caPem: identity.files['ca.crt'] };
    const body = {
      agent_version: '1',
      facts: hostFacts(),
      managed: { files: {}, units: {} },
      metrics: { at: new Date().toISOString(), source: 'host', cpu: { total_s: 2, idle_s: 1, cpus: 1 }, memory: null, filesystem: null },
    };
    const started = performance.now();
    for (let i = 0; i < 20; i++) expect((await post(gw, cert, NODE_AGENT_PATHS.report, body)).status).toBe(200);
    const spacings = Math.floor((performance.now() - started) / METRICS_SPACING_MS);
    expect(t.manager.tables.hostMetrics.since(hostId, '2000-01-01T00:00:00Z').length).toBeLessThanOrEqual(1 + spacings);
  });
});

describe('the rate limit per agent certificate', () => {
  let gw: Gateway;
  beforeAll(async () => {
    ({ gateway: gw } = await startTestGateway(t, { agentRateLimit: { burst: 3, perMinute: 6 } }));
  });
  afterAll(() => gw?.close());

  test('past its burst a certificate is answered 429 rate_limited with Retry-After, and nothing is stored', async () => {
    const id = t.manager.clusters.create({ name: 'limited' }, 'test').id;
    const cert = agentCert(t, id);
    for (let i = 1; i <= 3; i++) expect((await post(gw, cert, GATEWAY_PATHS.report, report(i))).status).toBe(200);
    const refused = await post(gw, cert, GATEWAY_PATHS.report, report(4));
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ error: { code: 'rate_limited' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(10);
    expect(t.manager.tables.clusterAccess.latestAgentSnapshot(id)?.data).toMatchObject({ n: 3 });
    // Another agent's certificate is not slowed by this one.
    const other = agentCert(t, t.manager.clusters.create({ name: 'other' }, 'test').id);
    expect((await post(gw, other, GATEWAY_PATHS.report, report(1))).status).toBe(200);
  });
});
