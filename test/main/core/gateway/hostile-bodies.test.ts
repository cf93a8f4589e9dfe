// The gateway reads agent bodies with the console's decoder: a lone surrogate or a 200,000-level report is a 400
// invalid_json, an oversized one a 413 body_too_large written before the connection closes; and an inventory
// stored before this check, holding a lone surrogate, no longer breaks the acceptance reports of its cluster.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Gateway } from '../../../../main/core/gateway/gateway';
import { verifyDocument } from '../../../../main/wire/envelope';
import { testManager, type TestManager } from '../../../support/manager';
import { startTestGateway, agentCert } from '../../../support/test-gateway';
import { httpsCall, LONE } from '../../../support/https-call';
import type { ClientCert } from '../../../support/gateway-client';

let t: TestManager;
let gw: Gateway;
let cert: ClientCert;
let clusterId: string;

const post = (path: string, body: string | Buffer) =>
  httpsCall(gw.url, path, { body, ca: cert.caPem, cert: cert.certPem, key: cert.keyPem, servername: 'localhost' });

beforeAll(async () => {
  t = testManager();
  gw = (await startTestGateway(t)).gateway;
  clusterId = t.manager.clusters.create({ name: 'edge-1' }, 'test').id;
  cert = agentCert(t, clusterId);
});
afterAll(async () => {
  await gw?.close();
  t?.close();
});

describe('agent bodies', () => {
  test('an inventory holding a lone surrogate is refused with 400 invalid_json and not stored', async () => {
    const r = await post('/v1/cluster-agent/report', `{"replica":"a","leader":true,"inventory":{"kubernetes_version":"v1.30${LONE}"}}`);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalid_json', details: { reason: 'lone_surrogate' } });
    expect(t.manager.tables.clusterAccess.latestSnapshot(clusterId)).toBeUndefined();
  });

  test('a report nested 200,000 levels deep gets a clear 400, and receipts are judged the same way', async () => {
    const n = 200_000;
    const r = await post('/v1/cluster-agent/report', `{"inventory":${'['.repeat(n)}${']'.repeat(n)}}`);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalid_json', details: { reason: 'too_deep' } });
    const receipts = await post('/v1/cluster-agent/receipts', `{"receipts":[{"command_id":"${LONE}","status":"succeeded"}]}`);
    expect(receipts.json.error.code).toBe('invalid_json');
  });

  test('a receipt with fields of the wrong type is a 400, and nothing of its batch is recorded (found by the fuzz: 500)', async () => {
    const good = t.manager.commands.issue(clusterId, 'inventory.report', {}, 'test').id;
    const bad = t.manager.commands.issue(clusterId, 'inventory.report', {}, 'test').id;
    const receipt = (id: string, extra: object) => ({
      command_id: id,
      status: 'succeeded',
      executed_at: '2026-01-01T00:00:00Z',
      replica: 'a',
      ...extra,
    });
    for (const extra of [{ replica: [] }, { code: { x: 1 } }, { message: 7 }, { original: { status: 'done' } }, { original: [] }]) {
      const r = await post('/v1/cluster-agent/receipts', JSON.stringify({ receipts: [receipt(good, {}), receipt(bad, extra)] }));
      expect(r.status, JSON.stringify(extra)).toBe(400);
      expect(r.json.error.code).toBe('bad_request');
    }
    expect(t.manager.tables.commands.receipts(good)).toEqual([]);
    expect(t.manager.commands.get(good).state).not.toBe('succeeded');
  });

  test('a body over 4 MiB gets 413 body_too_large, not a reset, and the gateway answers afterwards', async () => {
    const r = await post('/v1/cluster-agent/report', `{"inventory":{"x":"${'a'.repeat(5 << 20)}"}}`);
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('body_too_large');
    const ok = await post(
      '/v1/cluster-agent/report',
      '{"replica":"a","leader":true,"inventory":{"kubernetes_version":"v1.30.2","nodes":[]}}',
    );
    expect(ok.status).toBe(200);
  });
});

test('an inventory stored before bodies were checked, with a lone surrogate, still gives a signed, verifiable report', async () => {
  const other = t.manager.clusters.create({ name: 'edge-old' }, 'test').id;
  // As the gateway stored it then: JSON.stringify keeps the lone surrogate as an escape, and reading it back restores it.
  t.manager.tables.clusterAccess.insertSnapshot(other, t.manager.clock.now().toISOString(), 'agent', {
    kubernetes_version: 'v1.30\ud800',
    nodes: [{ name: 'node\udc00-1', ready: true }],
  });
  expect((t.manager.tables.clusterAccess.latestSnapshot(other)!.data as { kubernetes_version: string }).kubernetes_version).toBe(
    'v1.30\ud800',
  );
  const report = await t.manager.reports.run(other, 'olga');
  const line = report.payload.lines.find((l) => l.id === 'inventory.fresh')!;
  expect(line.evidence.kubernetes_version).toBe('v1.30\ufffd');
  const verdict = verifyDocument(JSON.stringify(t.manager.reports.get(report.payload.report_id)), {
    impl: t.manager.ed25519,
    trustedKeys: t.manager.keyring.trusted(),
    expectedType: 'report',
  });
  expect(verdict).toMatchObject({ ok: true });
});
