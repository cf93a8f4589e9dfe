// The agent gateway with real TLS: client certificates of the manager CA only, one cluster per certificate,
// long polls answered at once, redelivery of unacknowledged commands, idempotent receipts.
import { VERSION } from '../../../../main/core/version';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Gateway } from '../../../../main/core/gateway/gateway';
import { testManager, type TestManager } from '../../../support/manager';
import { startTestGateway, agentCert } from '../../../support/test-gateway';
import { gatewayCall, type ClientCert } from '../../../support/gateway-client';

describe('agent gateway', () => {
  let t: TestManager;
  let gw: Gateway;
  let a: { id: string; cert: ClientCert };
  let b: { id: string; cert: ClientCert };
  let caPem: string;

  async function cluster(name: string): Promise<{ id: string; cert: ClientCert }> {
    const c = t.manager.clusters.create({ name }, 'test');
    return { id: c.id, cert: agentCert(t, c.id) };
  }

  beforeAll(async () => {
    t = testManager();
    ({ gateway: gw, caPem } = await startTestGateway(t, { redeliverAfterS: 1 }));
    a = await cluster('cluster-a');
    b = await cluster('cluster-b');
  });
  afterAll(async () => {
    await gw?.close();
    t?.close();
  });

  test('a client without a certificate cannot connect', async () => {
    await expect(
      gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=0', { certPem: undefined as never, keyPem: undefined as never, caPem }),
    ).rejects.toThrow();
  });

  test('an empty long poll returns after the wait with no command', async () => {
    const res = await gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=1', a.cert);
    expect(res).toEqual({ status: 200, body: { commands: [] } });
    expect(t.manager.tables.commands.agentStatus(a.id)).toMatchObject({ leader_replica: 'test-replica', agent_version: VERSION });
  });

  test('a held long poll ends after its wait even when the wall clock is set back meanwhile', async () => {
    const poll = gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=1', a.cert);
    await new Promise((r) => setTimeout(r, 300));
    // An NTP step of an hour back, while the poll is held: its end is not an hour away.
    const now = Date.now.bind(Date);
    const back = vi.spyOn(Date, 'now').mockImplementation(() => now() - 3_600_000);
    try {
      expect(await poll).toEqual({ status: 200, body: { commands: [] } });
    } finally {
      back.mockRestore();
    }
  }, 8_000);

  test('a held long poll answers at once when a command for its cluster is queued, and only its own', async () => {
    const started = Date.now();
    const poll = gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=30', a.cert);
    await new Promise((r) => setTimeout(r, 200));
    t.manager.commands.issue(b.id, 'inventory.report', {}, 'test');
    const mine = t.manager.commands.issue(a.id, 'inventory.report', {}, 'test');
    const res = await poll;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(res.body.commands.map((c: { payload: { command_id: string } }) => c.payload.command_id)).toEqual([mine.id]);
    expect(t.manager.tables.commands.get(mine.id)?.state).toBe('delivered');
    // Acknowledged, so that its redelivery does not answer the next test's long poll before that test's command.
    const receipt = { command_id: mine.id, status: 'succeeded', result: {}, executed_at: new Date().toISOString(), replica: 'r1' };
    expect((await gatewayCall(gw.url, 'POST', '/v1/cluster-agent/receipts', a.cert, { receipts: [receipt] })).status).toBe(200);
  });

  test('an unacknowledged command is delivered again after the redelivery delay; a receipt closes it once', async () => {
    const cmd = t.manager.commands.issue(a.id, 'inventory.report', {}, 'test');
    const first = await gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=0', a.cert);
    expect(first.body.commands.map((c: { payload: { command_id: string } }) => c.payload.command_id)).toContain(cmd.id);
    expect((await gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=0', a.cert)).body.commands).toEqual([]);
    const again = await gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=5', a.cert);
    expect(again.body.commands.map((c: { payload: { command_id: string } }) => c.payload.command_id)).toContain(cmd.id);
    expect(t.manager.tables.commands.get(cmd.id)?.deliveries).toBe(2);

    const receipt = { command_id: cmd.id, status: 'succeeded', result: { nodes: 3 }, executed_at: new Date().toISOString(), replica: 'r1' };
    expect((await gatewayCall(gw.url, 'POST', '/v1/cluster-agent/receipts', a.cert, { receipts: [receipt] })).status).toBe(200);
    // A later receipt (e.g. a replay) is kept but does not change the status.
    await gatewayCall(gw.url, 'POST', '/v1/cluster-agent/receipts', a.cert, {
      receipts: [{ ...receipt, status: 'rejected', code: 'nonce_replayed' }],
    });
    const stored = t.manager.commands.get(cmd.id);
    expect(stored).toMatchObject({ state: 'succeeded', result: { nodes: 3 } });
    expect(stored.receipts).toHaveLength(2);
  });

  test('a nonce_replayed receipt carrying the original outcome sets that outcome', async () => {
    const cmd = t.manager.commands.issue(a.id, 'inventory.report', {}, 'test');
    await gatewayCall(gw.url, 'POST', '/v1/cluster-agent/receipts', a.cert, {
      receipts: [
        {
          command_id: cmd.id,
          status: 'rejected',
          code: 'nonce_replayed',
          executed_at: new Date().toISOString(),
          replica: 'r2',
          original: { status: 'succeeded', result: { nodes: 1 }, executed_at: new Date().toISOString() },
        },
      ],
    });
    expect(t.manager.commands.get(cmd.id)).toMatchObject({ state: 'succeeded', result: { nodes: 1 } });
  });

  test("a receipt for another cluster's command is refused with 403 and audited", async () => {
    const cmdB = t.manager.commands.issue(b.id, 'inventory.report', {}, 'test');
    const res = await gatewayCall(gw.url, 'POST', '/v1/cluster-agent/receipts', a.cert, {
      receipts: [{ command_id: cmdB.id, status: 'succeeded', executed_at: new Date().toISOString(), replica: 'r1' }],
    });
    expect(res.status).toBe(403);
    expect(t.manager.tables.commands.get(cmdB.id)?.state).toBe('queued');
    const audit = t.manager.store.audit.list({ action: 'gateway.receipt_refused' });
    expect(audit[0]).toMatchObject({ cluster_id: a.id, target: cmdB.id });
  });

  test('the inventory report is stored as a snapshot', async () => {
    const res = await gatewayCall(gw.url, 'POST', '/v1/cluster-agent/report', a.cert, {
      replica: 'r1',
      agent_version: '0.1.0',
      leader: true,
      inventory: { kubernetes_version: 'v1.30.0', nodes: [] },
    });
    expect(res.status).toBe(200);
    expect(t.manager.tables.clusterAccess.latestSnapshot(a.id)).toMatchObject({ source: 'agent', data: { kubernetes_version: 'v1.30.0' } });
  });

  test('a revoked certificate cannot connect', async () => {
    const old = a.cert;
    const renewed = t.manager.agentIdentities.issue(a.id, 'https://localhost:8462', 'test');
    await expect(gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=0', old)).rejects.toThrow();
    const fresh = { certPem: renewed.files['tls.crt'], keyPem: renewed.files['tls.key'], caPem };
    expect((await gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=0', fresh)).status).toBe(200);
  });

  test('a certificate from another CA is refused', async () => {
    const other = testManager();
    try {
      const c = other.manager.clusters.create({ name: 'stranger' }, 'test');
      const id = other.manager.agentIdentities.issue(c.id, 'https://localhost:8462', 'test');
      await expect(
        gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=0', {
          certPem: id.files['tls.crt'],
          keyPem: id.files['tls.key'],
          caPem,
        }),
      ).rejects.toThrow();
    } finally {
      other.close();
    }
  });
});
