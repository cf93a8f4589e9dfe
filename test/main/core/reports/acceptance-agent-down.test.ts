// An acceptance run when the agent is down or the evidence is missing: the lines that ran and found a problem
// FAIL with the observed values, the ones that could not run are BLOCKED with the reason, and none passes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Gateway } from '../../../../main/core/gateway/gateway';
import type { ReportLine } from '../../../../main/contract/check-types';
import type { SignedReport } from '../../../../main/contract/report-types';
import { testManager, type TestManager } from '../../../support/manager';
import { startTestGateway } from '../../../support/test-gateway';
import { gatewayCall } from '../../../support/gateway-client';
import { ManualClock } from '../../../support/clock';
import { absentDigest } from '../../../support/registry';

const SPEC = {
  component: 'nats',
  version: '2.10.0',
  artifacts: [{ name: 'nats', image: `registry.internal/navin/nats@${absentDigest('nats')}` }],
};
const lineOf = (report: SignedReport, id: string): ReportLine => report.payload.lines.find((l) => l.id === id)!;

describe('acceptance of a cluster whose agent never connected', () => {
  let t: TestManager;
  let report: SignedReport;

  beforeAll(async () => {
    t = testManager();
    const c = t.manager.clusters.create({ name: 'dark' }, 'test');
    t.manager.agentIdentities.issue(c.id, 'https://localhost:8462', 'test');
    t.manager.commands.issue(c.id, 'managedcomponent.apply', { name: 'nats', spec: SPEC }, 'test');
    report = await t.manager.reports.run(c.id, 'olga');
  });
  afterAll(() => t?.close());

  test('agent.mtls fails with last_seen null, and says the gateway could not be probed without its address', () => {
    const l = lineOf(report, 'agent.mtls');
    expect(l.status).toBe('FAIL');
    expect((l.evidence as any).gateway_record.last_seen).toBeNull();
    expect(l.evidence.reason!.en).toMatch(/never connected/);
    expect(l.evidence.reason!.en).toMatch(/gateway address is not known/);
    expect(l.evidence.reason!.fr).toMatch(/ne s'est jamais connecté/);
    expect(l.evidence.probes).toBeUndefined();
  });

  test('agent.config is BLOCKED: an identity was issued but no certificate was ever presented', () => {
    const l = lineOf(report, 'agent.config');
    expect(l.status).toBe('BLOCKED');
    expect(l.evidence.presented_serial).toBeNull();
    expect(l.evidence.reason!.en).toMatch(/never presented a certificate/);
  });

  test('inventory.fresh fails when no snapshot was ever taken', () => {
    const l = lineOf(report, 'inventory.fresh');
    expect(l.status).toBe('FAIL');
    expect(l.evidence.taken_at).toBeNull();
  });

  test('component, install source and functional lines are BLOCKED with their reasons; the verdict is FAIL', () => {
    expect(lineOf(report, 'component.nats')).toMatchObject({ status: 'BLOCKED', evidence: { desired_spec: SPEC } });
    expect(lineOf(report, 'component.nats').evidence.reason!.en).toMatch(/no registered import access/);
    expect(lineOf(report, 'install.offline_source.nats').status).toBe('BLOCKED');
    expect(lineOf(report, 'install.offline_source.nats').evidence.reason!.en).toMatch(/no internal mirror is configured/);
    expect(lineOf(report, 'functional.nats').status).toBe('BLOCKED');
    expect(report.payload.lines.some((l) => l.status === 'PASS' && !l.id.startsWith('preflight.'))).toBe(false);
    expect(report.payload.verdict).toBe('FAIL');
  });
});

describe('acceptance of a cluster whose agent went silent', () => {
  let t: TestManager;
  let gw: Gateway;
  let clock: ManualClock;
  let clusterId: string;

  beforeAll(async () => {
    clock = new ManualClock(Date.now());
    t = testManager({ clock });
    clusterId = t.manager.clusters.create({ name: 'quiet' }, 'test').id;
    gw = (await startTestGateway(t)).gateway;
    const id = t.manager.agentIdentities.issue(clusterId, gw.url, 'test');
    expect(
      (
        await gatewayCall(gw.url, 'GET', '/v1/cluster-agent/commands?wait=0', {
          certPem: id.files['tls.crt'],
          keyPem: id.files['tls.key'],
          caPem: id.files['ca.crt'],
        })
      ).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await gw?.close();
    t?.close();
  });

  test('a connected agent with no known gateway address gives a BLOCKED agent.mtls, never a PASS', async () => {
    t.manager.listeners.gateway = undefined;
    const l = lineOf(await t.manager.reports.run(clusterId, 'olga'), 'agent.mtls');
    expect(l.status).toBe('BLOCKED');
    expect(l.evidence.reason!.en).toMatch(/gateway address is not known/);
  });

  test('an agent last seen longer ago than the connected window fails agent.mtls with its last_seen', async () => {
    const lastSeen = t.manager.tables.commands.agentStatus(clusterId)!.last_seen;
    clock.advance(120_000);
    t.manager.listeners.gateway = { host: '127.0.0.1', port: gw.port, serverName: 'localhost' };
    const report = await t.manager.reports.run(clusterId, 'olga');
    const l = lineOf(report, 'agent.mtls');
    expect(l.status).toBe('FAIL');
    expect(l.evidence).toMatchObject({ gateway_record: { last_seen: lastSeen, age_s: 120, connected_window_s: 45 } });
    expect(l.evidence.reason!.en).toContain(`last seen at ${lastSeen}`);
    // The handshake part still ran and shows the gateway refusing a client without a certificate.
    expect((l.evidence as any).probes[0]).toMatchObject({ client_certificate: 'none', request_answered: false });
    // Its certificate is still the cluster's current one.
    expect(lineOf(report, 'agent.config').status).toBe('PASS');
    expect(lineOf(report, 'components.declared')).toMatchObject({ status: 'BLOCKED', evidence: { components: 0 } });
    expect(report.payload.verdict).toBe('FAIL');
  });

  test('a gateway address where nothing listens fails agent.mtls with the connection error', async () => {
    const port = gw.port;
    await gw.close();
    t.manager.listeners.gateway = { host: '127.0.0.1', port, serverName: 'localhost' };
    const l = lineOf(await t.manager.reports.run(clusterId, 'olga'), 'agent.mtls');
    expect(l.status).toBe('FAIL');
    expect(l.evidence.reason!.en).toMatch(/ECONNREFUSED/);
  });
});
