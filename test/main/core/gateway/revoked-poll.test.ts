// A held long poll belongs to a certificate: once that certificate is revoked the poll ends at once, and no
// command queued after the revocation is handed to it (nor marked delivered).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Gateway } from '../../../../main/core/gateway/gateway';
import { testManager, type TestManager } from '../../../support/manager';
import { agentCert, startTestGateway } from '../../../support/test-gateway';
import { gatewayCall } from '../../../support/gateway-client';

describe('revoked certificate and its held long poll', () => {
  let t: TestManager;
  let gw: Gateway;

  beforeAll(async () => {
    t = testManager();
    ({ gateway: gw } = await startTestGateway(t, { hosts: t.manager.hostCommands }));
  });
  afterAll(async () => {
    await gw?.close();
    t?.close();
  });

  const heldPolls = async (n: number): Promise<void> => {
    for (let i = 0; i < 100 && gw.heldPolls() !== n; i++) await new Promise((r) => setTimeout(r, 20));
    expect(gw.heldPolls()).toBe(n);
  };

  test('re-issuing the identity ends the held poll at once; the next command is not delivered to the old certificate', async () => {
    const c = t.manager.clusters.create({ name: 'revoked-a' }, 'test');
    const old = agentCert(t, c.id);
    const started = performance.now();
    const poll = gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=30', old);
    await heldPolls(1);
    agentCert(t, c.id); // a new identity revokes the previous certificate
    const cmd = t.manager.commands.issue(c.id, 'inventory.report', {}, 'test');
    const res = await poll;
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('certificate_refused');
    expect(gw.heldPolls()).toBe(0);
    expect(t.manager.tables.commands.get(cmd.id)).toMatchObject({ state: 'queued', deliveries: 0 });
  }, 10_000);

  test('a revocation committed without any event (another process) still hands the held poll nothing', async () => {
    const c = t.manager.clusters.create({ name: 'revoked-b' }, 'test');
    const old = agentCert(t, c.id);
    const poll = gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=30', old);
    await heldPolls(1);
    t.manager.store.tx(() => t.manager.tables.keys.revokeClientCertificates(c.id, new Date().toISOString()));
    const cmd = t.manager.commands.issue(c.id, 'inventory.report', {}, 'test');
    const res = await poll;
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('certificate_refused');
    expect(t.manager.tables.commands.get(cmd.id)).toMatchObject({ state: 'queued', deliveries: 0 });
  }, 10_000);

  test("a node agent's held poll ends when its host's identity is re-issued; the next plan stays queued", async () => {
    const c = t.manager.clusters.create({ name: 'revoked-hosts', kind: 'hosts' }, 'test');
    const hostId = t.manager.hosts.add(c.id, { name: 'h-0', address: '198.18.9.21' }, 'test').id;
    const issue = () => {
      const identity = t.manager.hostIdentities.issue(hostId, { gateway_url: 'https://localhost:8462' }, 'test');
      return { certPem: identity.files['tls.crt'], keyPem: identity.files['tls.key'], caPem: identity.files['ca.crt'] };
    };
    const old = issue();
    const poll = gatewayCall(gw.url, 'GET', '/v1/node-agent/commands?wait=30', old);
    await heldPolls(1);
    issue();
    const cmd = t.manager.hostCommands.issueFactsReport(hostId, 'test');
    const res = await poll;
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('certificate_refused');
    expect(t.manager.tables.commands.get(cmd.id)).toMatchObject({ state: 'queued', deliveries: 0 });
  }, 10_000);
});
