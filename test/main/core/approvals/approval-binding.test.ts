// An approval is bound to the exact request it approves (the digest of its canonical JSON): an approval of
// "configuration of nats" with some settings applies those settings and no others; the approver reads the change
// against the configuration in force.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import { createHash } from 'node:crypto';
import type { Credentials } from '../../../../main/core/http/router';
import { canonicalize } from '../../../../main/wire/canonical-json';
import { ManualClock } from '../../../support/clock';
import { testManager, type TestManager } from '../../../support/manager';

const errorOf = (body: unknown) => (body as { error: { code: string; details?: Record<string, unknown> } }).error;

describe('an approval of a service configuration', () => {
  const clock = new ManualClock();
  let t: TestManager;
  let bob: Credentials;
  let olga: Credentials;
  let clusterId: string;

  beforeAll(async () => {
    t = testManager({ clock });
    bob = await t.login('bob', 'admin');
    olga = await t.login('olga', 'operator');
    const user = t.manager.accounts.listUsers().find((u) => u.name === 'bob')!;
    const e = await t.manager.accounts.startMfaEnrolment(user.id, 'test');
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(e.secret) }).generate({ timestamp: clock.now().getTime() });
    t.manager.accounts.confirmMfaEnrolment(user.id, code, 'test');
    clusterId = t.manager.clusters.create({ name: 'bus', kind: 'hosts', profile: 'banking-secure' }, 'test').id;
    const host = (await t.call('POST', `/api/v1/clusters/${clusterId}/hosts`, { name: 'n1', address: '10.0.0.1' }, olga)).body as {
      id: string;
    };
    t.manager.tables.hosts.setReport(host.id, clock.now().toISOString(), { architecture: 'amd64' }, []);
    t.manager.tables.services.put({
      cluster_id: clusterId,
      service: 'nats',
      version: '2.9.10-1',
      hosts: [host.id],
      config: { jetstream_max_memory: '256MB' },
      state: 'running',
      updated_at: clock.now().toISOString(),
    });
  });
  afterAll(() => t?.close());

  const configure = (size: string, approvalId: string) =>
    t.call(
      'PUT',
      `/api/v1/clusters/${clusterId}/services/nats/config`,
      { config: { jetstream_max_memory: size }, approval_id: approvalId },
      olga,
    );

  it('carries the digest of its canonical request and shows the approver the change against the configuration in force', async () => {
    const change = { settings: { jetstream_max_memory: '512MB' } };
    const res = await t.call(
      'POST',
      '/api/v1/approvals',
      { cluster_id: clusterId, action: 'configuration', service: 'nats', reason: 'more memory', change },
      olga,
    );
    expect(res.status).toBe(201);
    const id = (res.body as { id: string }).id;
    const seen = (await t.call('GET', `/api/v1/approvals/${id}`, undefined, bob)).body as Record<string, unknown>;
    const canonical = canonicalize({ action: 'configuration', cluster_id: clusterId, service: 'nats', change });
    expect(seen.digest).toBe(createHash('sha256').update(canonical).digest('hex'));
    expect(seen.change).toEqual(change);
    expect(seen.diff).toEqual([{ path: 'settings.jetstream_max_memory', before: '"256MB"', after: '"512MB"' }]);
    expect((await t.call('POST', `/api/v1/approvals/${id}/approve`, {}, bob)).status).toBe(200);

    // Another size under the same approval: refused, audited, the approval still unspent.
    const other = await configure('1GB', id);
    expect(other.status).toBe(409);
    expect(errorOf(other.body).code).toBe('approval_mismatch');
    expect(t.manager.approvals.get(id).state).toBe('approved');
    expect(t.manager.tables.services.get(clusterId, 'nats')!.config).toEqual({ jetstream_max_memory: '256MB' });
    expect(t.manager.store.audit.list({ action: 'approval.use_refused' }).map((r) => r.details.code)).toContain('approval_mismatch');

    // The very settings approved: applied, the approval spent.
    const same = await configure('512MB', id);
    expect(same.status, JSON.stringify(same.body)).toBe(202);
    expect(t.manager.approvals.get(id).state).toBe('used');
    expect(t.manager.tables.services.get(clusterId, 'nats')!.config).toEqual({ jetstream_max_memory: '512MB' });
  });

  it('an upgrade approved for one version does not install another', async () => {
    const res = await t.call(
      'POST',
      '/api/v1/approvals',
      { cluster_id: clusterId, action: 'upgrade', service: 'nats', reason: 'patch', change: { version: '2.10.0' } },
      olga,
    );
    const id = (res.body as { id: string }).id;
    await t.call('POST', `/api/v1/approvals/${id}/approve`, {}, bob);
    const other = t.manager.approvals.check.bind(t.manager.approvals);
    const olgaUser = t.manager.accounts.listUsers().find((u) => u.name === 'olga')!;
    expect(() =>
      other(id, { cluster_id: clusterId, action: 'upgrade', service: 'nats', user_id: olgaUser.id, change: { version: '2.11.0' } }),
    ).toThrow(expect.objectContaining({ code: 'approval_mismatch' }));
    expect(
      other(id, { cluster_id: clusterId, action: 'upgrade', service: 'nats', user_id: olgaUser.id, change: { version: '2.10.0' } }).id,
    ).toBe(id);
  });
});
