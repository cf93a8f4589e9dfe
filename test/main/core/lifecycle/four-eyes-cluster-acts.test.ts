// Four eyes for the disruptive acts on a cluster, through the real console API: under banking-secure, deleting a
// cluster or a host, re-issuing an agent identity and a backup that stops a server need another person's
// approval; a cluster that still holds something is never deleted, under any profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credentials } from '../../../../main/core/http/router';
import { ManualClock } from '../../../support/clock';
import { testManager, type TestManager } from '../../../support/manager';

const errorOf = (body: unknown) => (body as { error: { code: string; details?: Record<string, unknown> } }).error;
const GATEWAY = 'https://127.0.0.1:9443';

describe('four eyes for the disruptive acts on a cluster', () => {
  const clock = new ManualClock();
  let t: TestManager;
  let ada: Credentials;
  let bob: Credentials;
  let olga: Credentials;
  let hostsId: string;

  const approved = (body: Record<string, unknown>): Promise<string> => t.approved({ reason: 'change CHG-9', ...body }, olga, bob);

  beforeAll(async () => {
    t = testManager({ clock });
    ada = await t.login('ada', 'admin');
    bob = await t.login('bob', 'admin');
    olga = await t.login('olga', 'operator');
    for (const name of ['ada', 'bob']) await t.enrolMfa(name);
    hostsId = t.manager.clusters.create({ name: 'vault', kind: 'hosts', profile: 'banking-secure' }, 'test').id;
  });
  afterAll(() => t?.close());

  it('deleting a cluster that still has components is refused cluster_not_empty with their list, under every profile', async () => {
    const dev = t.manager.clusters.create({ name: 'dev', profile: 'development' }, 'test').id;
    t.manager.commands.issue(dev, 'managedcomponent.apply', { name: 'opa', spec: { component: 'opa', version: '1.0.0' } }, 'test');
    const res = await t.call('DELETE', `/api/v1/clusters/${dev}`, undefined, olga);
    expect(res.status).toBe(409);
    expect(errorOf(res.body)).toMatchObject({ code: 'cluster_not_empty', details: { components: ['opa'], services: [] } });
    expect(t.manager.tables.clusters.get(dev)).toBeDefined();
  });

  it('deleting a host, then re-issuing a host identity, needs an approval under banking-secure', async () => {
    const host = (await t.call('POST', `/api/v1/clusters/${hostsId}/hosts`, { name: 'n1', address: '10.0.0.1' }, olga)).body as {
      id: string;
    };
    // A first identity cuts nobody off.
    expect((await t.call('POST', `/api/v1/hosts/${host.id}/agent`, { gateway_url: GATEWAY }, olga)).status).toBe(201);
    const again = await t.call('POST', `/api/v1/hosts/${host.id}/agent`, { gateway_url: GATEWAY }, olga);
    expect(errorOf(again.body)).toMatchObject({ code: 'approval_required', details: { action: 'reissue_identity', service: 'n1' } });
    const reissue = await approved({ cluster_id: hostsId, action: 'reissue_identity', service: 'n1' });
    expect((await t.call('POST', `/api/v1/hosts/${host.id}/agent`, { gateway_url: GATEWAY, approval_id: reissue }, olga)).status).toBe(201);

    expect(errorOf((await t.call('DELETE', `/api/v1/hosts/${host.id}`, undefined, olga)).body).code).toBe('approval_required');
    expect(t.manager.tables.hosts.get(host.id)).toBeDefined();
    const del = await approved({ cluster_id: hostsId, action: 'delete_host', service: 'n1' });
    expect((await t.call('DELETE', `/api/v1/hosts/${host.id}?approval_id=${del}`, undefined, olga)).status).toBe(204);
    expect(t.manager.tables.hosts.get(host.id)).toBeUndefined();
  });

  it('re-issuing a cluster agent’s identity (the running agent is revoked) needs an approval under banking-secure', async () => {
    const bank = t.manager.clusters.create({ name: 'bank', profile: 'banking-secure' }, 'test').id;
    const path = `/api/v1/clusters/${bank}/kubernetes/agent`;
    expect((await t.call('POST', path, { gateway_url: GATEWAY }, olga)).status).toBe(201);
    expect(errorOf((await t.call('POST', path, { gateway_url: GATEWAY }, olga)).body)).toMatchObject({
      code: 'approval_required',
      details: { action: 'reissue_identity', service: 'agent' },
    });
    const id = await approved({ cluster_id: bank, action: 'reissue_identity', service: 'agent' });
    const again = await t.call('POST', path, { gateway_url: GATEWAY, approval_id: id }, olga);
    expect(again.status).toBe(201);
    expect((again.body as { revoked_serials: string[] }).revoked_serials).toHaveLength(1);
  });

  it('a backup that stops the server (NATS) needs an approval; one that does not (etcd) passes the gate alone', async () => {
    const host = (await t.call('POST', `/api/v1/clusters/${hostsId}/hosts`, { name: 'n2', address: '10.0.0.2' }, olga)).body as {
      id: string;
    };
    const now = clock.now().toISOString();
    for (const service of ['nats', 'etcd'])
      t.manager.tables.services.put({
        cluster_id: hostsId,
        service,
        version: '1.0.0',
        hosts: [host.id],
        config: {},
        state: 'running',
        updated_at: now,
      });
    const nats = await t.call('POST', `/api/v1/clusters/${hostsId}/service-backups`, { services: ['nats'] }, olga);
    expect(errorOf(nats.body)).toMatchObject({ code: 'approval_required', details: { action: 'backup', service: 'nats' } });
    const etcd = await t.call('POST', `/api/v1/clusters/${hostsId}/service-backups`, { services: ['etcd'] }, olga);
    expect(etcd.status, JSON.stringify(etcd.body)).not.toBe(403);
    for (const service of ['nats', 'etcd']) t.manager.tables.services.delete(hostsId, service);
  });

  it('deleting an empty banking-secure cluster needs an approval, then deletes it', async () => {
    for (const h of t.manager.tables.hosts.list(hostsId)) t.manager.hosts.remove(h.id, 'test');
    expect(errorOf((await t.call('DELETE', `/api/v1/clusters/${hostsId}`, undefined, olga)).body).code).toBe('approval_required');
    expect(t.manager.tables.clusters.get(hostsId)).toBeDefined();
    const id = await approved({ cluster_id: hostsId, action: 'delete_cluster', service: 'vault' });
    expect((await t.call('DELETE', `/api/v1/clusters/${hostsId}?approval_id=${id}`, undefined, ada)).status).toBe(403);
    expect((await t.call('DELETE', `/api/v1/clusters/${hostsId}?approval_id=${id}`, undefined, olga)).status).toBe(204);
    expect(t.manager.tables.clusters.get(hostsId)).toBeUndefined();
    expect(t.manager.store.audit.list({ action: 'approval.use' }).some((r) => r.details.action === 'delete_cluster')).toBe(true);
  });
});
