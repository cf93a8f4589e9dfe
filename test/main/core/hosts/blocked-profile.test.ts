// A blocked profile on a hosts cluster, through the console API: an administrator's raw plan is a command and is
// refused profile_blocked, as a service install is, and nothing reaches the host. Reads that help bring the
// cluster back into compliance (a facts report) stay possible.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as OTPAuth from 'otpauth';
import type { Credentials } from '../../../../main/core/http/router';
import { testManager, type TestManager } from '../../../support/manager';

const PLAN = { tasks: [{ id: 'w', kind: 'file.write', path: '/etc/navin/x', content: 'x' }] };
type ErrorBody = { error: { code: string; details?: { action?: string; failing?: { id: string }[] } } };

describe('a blocked profile on a hosts cluster', () => {
  let t: TestManager;
  let admin: Credentials;
  let clusters = 0;

  const hostIn = async (profile: string): Promise<{ clusterId: string; hostId: string }> => {
    const c = await t.call('POST', '/api/v1/clusters', { name: `hosts-${++clusters}`, kind: 'hosts', profile }, admin);
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const clusterId = (c.body as { id: string }).id;
    const h = await t.call('POST', `/api/v1/clusters/${clusterId}/hosts`, { name: 'node-1', address: '198.18.7.11' }, admin);
    expect(h.status, JSON.stringify(h.body)).toBe(201);
    return { clusterId, hostId: (h.body as { id: string }).id };
  };

  beforeAll(async () => {
    t = testManager();
    admin = await t.login('root', 'admin');
    // The admin has a second factor, so the profiles that demand one let it through; the profiles stay blocked
    // on their other rules (this manager runs no console listener nor gateway).
    const root = t.manager.accounts.listUsers().find((u) => u.name === 'root')!;
    const e = await t.manager.accounts.startMfaEnrolment(root.id, 'test');
    t.manager.accounts.confirmMfaEnrolment(root.id, new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(e.secret) }).generate(), 'test');
  });
  afterAll(() => t?.close());

  test.each(['standard', 'hybrid', 'air-gapped'])(
    "an admin's raw plan to a host of a blocked %s cluster is refused profile_blocked, audited, and nothing is queued",
    async (profile) => {
      const { clusterId, hostId } = await hostIn(profile);
      expect((await t.call('GET', `/api/v1/clusters/${clusterId}/profile`, undefined, admin)).body).toMatchObject({ status: 'blocked' });
      const res = await t.call('POST', `/api/v1/hosts/${hostId}/plans`, PLAN, admin);
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      const error = (res.body as ErrorBody).error;
      expect(error).toMatchObject({ code: 'profile_blocked', details: { action: 'command' } });
      expect(error.details!.failing!.map((f) => f.id)).toContain('profile.console_tls');
      expect((await t.call('GET', `/api/v1/hosts/${hostId}/commands`, undefined, admin)).body).toEqual({ items: [] });
      const refused = t.manager.store.audit.list({ cluster_id: clusterId }).filter((r) => r.action === 'command.refused');
      expect(refused).toEqual([
        expect.objectContaining({
          actor: 'root',
          target: 'node-1',
          details: expect.objectContaining({ op: 'plan.execute', host_id: hostId, code: 'profile_blocked' }),
        }),
      ]);
    },
  );

  test('under a blocked profile a bad plan is still a 400, and a facts report (a read) is still sent', async () => {
    const { hostId } = await hostIn('standard');
    const bad = await t.call('POST', `/api/v1/hosts/${hostId}/plans`, { tasks: [{ id: 'w', kind: 'file.write', path: '/etc/x' }] }, admin);
    expect(bad.status).toBe(400);
    expect((bad.body as ErrorBody).error.code).toBe('invalid_field');
    const facts = await t.call('POST', `/api/v1/hosts/${hostId}/facts/report`, undefined, admin);
    expect(facts.status).toBe(202);
    expect(facts.body).toMatchObject({ op: 'facts.report' });
  });

  test('a service install on a blocked standard cluster is refused profile_blocked and sends no plan', async () => {
    const { hostId, clusterId } = await hostIn('standard');
    const res = await t.call(
      'POST',
      `/api/v1/clusters/${clusterId}/services`,
      { service: 'etcd', version: '3.4.23-1', hosts: [hostId] },
      admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect((res.body as ErrorBody).error).toMatchObject({ code: 'profile_blocked', details: { action: 'install' } });
    const sent = ((await t.call('GET', `/api/v1/hosts/${hostId}/commands`, undefined, admin)).body as { items: { op: string }[] }).items;
    expect(sent.map((c) => c.op)).toEqual(['facts.report']);
  }, 30_000);

  test('the same raw plan to a host of a compliant development cluster is queued', async () => {
    const { clusterId, hostId } = await hostIn('development');
    expect((await t.call('GET', `/api/v1/clusters/${clusterId}/profile`, undefined, admin)).body).toMatchObject({ status: 'compliant' });
    const res = await t.call('POST', `/api/v1/hosts/${hostId}/plans`, PLAN, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ op: 'plan.execute', state: 'queued' });
  });
});
