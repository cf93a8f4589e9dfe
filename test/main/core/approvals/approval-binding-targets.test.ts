// An approval is bound to where an operation goes back to, not only to its action and service: a rollback to the
// version (and, for a service, the settings) it brings back, a restore to its backup set. An approval of "rollback
// opa" or "restore nats" from set S does nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import type { PublicUser } from '../../../../main/core/accounts/accounts';
import type { Credentials } from '../../../../main/core/http/router';
import { ManualClock } from '../../../support/clock';
import { testManager, type TestManager } from '../../../support/manager';

const errorOf = (body: unknown) => (body as { error: { code: string; details?: Record<string, unknown> } }).error;

const clock = new ManualClock();
let t: TestManager;
let olga: Credentials;
let ada: PublicUser;

beforeAll(async () => {
  t = testManager({ clock });
  olga = await t.login('olga', 'operator');
  ada = await t.manager.accounts.addUser('ada', 'admin', 'correct horse battery', 'test');
  const e = await t.manager.accounts.startMfaEnrolment(ada.id, 'test');
  const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(e.secret) }).generate({ timestamp: clock.now().getTime() });
  t.manager.accounts.confirmMfaEnrolment(ada.id, code, 'test');
});
afterAll(() => t?.close());

/** Olga asks, Ada approves: the approval's id. */
async function approved(clusterId: string, action: string, service: string, change: unknown): Promise<string> {
  const res = await t.call('POST', '/api/v1/approvals', { cluster_id: clusterId, action, service, reason: 'CHG-77', change }, olga);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = (res.body as { id: string }).id;
  t.manager.approvals.approve(id, ada);
  return id;
}

describe("a component's rollback", () => {
  const OPA = { component: 'opa', replicas: 2 };
  let clusterId: string;
  const rollback = (approvalId?: string) =>
    t.call('POST', `/api/v1/clusters/${clusterId}/components/opa/actions`, { action: 'rollback', approval_id: approvalId }, olga);

  beforeAll(() => {
    clusterId = t.manager.clusters.create({ name: 'bank-k8s', profile: 'banking-secure' }, 'test').id;
    t.manager.commands.issue(clusterId, 'managedcomponent.apply', { name: 'opa', spec: { ...OPA, version: '1.0.0' } }, 'test');
    t.manager.commands.issue(clusterId, 'managedcomponent.apply', { name: 'opa', spec: { ...OPA, version: '1.1.0' } }, 'test');
  });

  it('is asked for with the spec it goes back to, which the approver reads against the one in force', async () => {
    const refused = await rollback();
    expect(refused.status).toBe(403);
    expect(errorOf(refused.body)).toMatchObject({
      code: 'approval_required',
      details: { action: 'rollback', service: 'opa', change: { spec: { version: '1.0.0' } } },
    });
    const id = await approved(clusterId, 'rollback', 'opa', errorOf(refused.body).details!.change);
    expect(t.manager.approvals.get(id).diff).toEqual([{ path: 'spec.version', before: '"1.1.0"', after: '"1.0.0"' }]);
  });

  it('an approval of "rollback opa" that names no version, or another one, is refused approval_mismatch, nothing queued', async () => {
    const before = t.manager.commands.list(clusterId).length;
    for (const change of [null, { spec: { ...OPA, version: '0.9.0' } }]) {
      const id = await approved(clusterId, 'rollback', 'opa', change);
      const res = await rollback(id);
      expect(res.status).toBe(409);
      expect(errorOf(res.body).code).toBe('approval_mismatch');
      expect(t.manager.approvals.get(id).state).toBe('approved');
    }
    expect(t.manager.commands.list(clusterId).length).toBe(before);
  });

  it('the approval of the rollback to 1.0.0 rolls back to 1.0.0, once', async () => {
    const change = errorOf((await rollback()).body).details!.change;
    const id = await approved(clusterId, 'rollback', 'opa', change);
    const res = await rollback(id);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ action: 'rollback', args: { spec: { version: '1.0.0' } } });
    expect(t.manager.approvals.get(id).state).toBe('used');
  });
});

describe('a hosts service', () => {
  let clusterId: string;
  let hostId: string;

  beforeAll(async () => {
    clusterId = t.manager.clusters.create({ name: 'bank-hosts', kind: 'hosts', profile: 'banking-secure' }, 'test').id;
    const host = await t.call('POST', `/api/v1/clusters/${clusterId}/hosts`, { name: 'e1', address: '10.0.0.2' }, olga);
    hostId = (host.body as { id: string }).id;
    t.manager.tables.hosts.setReport(hostId, clock.now().toISOString(), { architecture: 'amd64' }, []);
  });

  describe('rolled back after an upgrade', () => {
    const rollback = (approvalId?: string) =>
      t.call('POST', `/api/v1/clusters/${clusterId}/services/etcd/rollback`, { approval_id: approvalId }, olga);

    beforeAll(() => {
      const at = clock.now().toISOString();
      t.manager.tables.services.put({
        cluster_id: clusterId,
        service: 'etcd',
        version: '3.4.23-2',
        hosts: [hostId],
        config: { auto_compaction_retention: '1' },
        state: 'running',
        updated_at: at,
      });
      t.manager.tables.services.insertOperation({
        id: 'op-etcd-upgrade',
        cluster_id: clusterId,
        service: 'etcd',
        action: 'upgrade',
        version: '3.4.23-2',
        from_version: '3.4.23-1',
        phases: [],
        requested_by: 'test',
        created_at: at,
      });
      t.manager.tables.services.finishOperation('op-etcd-upgrade', 'succeeded', null, null, at);
    });

    it('is asked for with the version it goes back to and the settings it brings back', async () => {
      const refused = await rollback();
      expect(refused.status).toBe(403);
      expect(errorOf(refused.body)).toMatchObject({
        code: 'approval_required',
        details: { action: 'rollback', service: 'etcd', change: { version: '3.4.23-1', settings: expect.any(Object) } },
      });
    });

    it('an approval that names no version, or another version, is refused approval_mismatch', async () => {
      const settings = (errorOf((await rollback()).body).details!.change as { settings: unknown }).settings;
      for (const change of [null, { version: '3.4.22-1', settings }]) {
        const id = await approved(clusterId, 'rollback', 'etcd', change);
        const res = await rollback(id);
        expect(res.status).toBe(409);
        expect(errorOf(res.body).code).toBe('approval_mismatch');
        expect(t.manager.approvals.get(id).state).toBe('approved');
      }
      expect(t.manager.tables.services.runningFor(clusterId, 'etcd')).toBeUndefined();
    });

    it('the approval of that very rollback, read as the version it goes back to, starts it', async () => {
      const id = await approved(clusterId, 'rollback', 'etcd', errorOf((await rollback()).body).details!.change);
      expect(t.manager.approvals.get(id).diff).toContainEqual({ path: 'version', before: '"3.4.23-2"', after: '"3.4.23-1"' });
      const res = await rollback(id);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body).toMatchObject({ action: 'rollback', service: 'etcd', version: '3.4.23-1' });
      expect(t.manager.approvals.get(id).state).toBe('used');
    });
  });

  describe('restored from a backup set', () => {
    const restore = (set: string, approvalId?: string) =>
      t.call('POST', `/api/v1/clusters/${clusterId}/service-backups/${set}/restore`, { service: 'nats', approval_id: approvalId }, olga);

    beforeAll(() => {
      const at = clock.now().toISOString();
      t.manager.tables.services.put({
        cluster_id: clusterId,
        service: 'nats',
        version: '2.9.10-1',
        hosts: [hostId],
        config: {},
        state: 'running',
        updated_at: at,
      });
      for (const set of ['set-s', 'set-t']) {
        t.manager.tables.serviceBackups.insertSet({
          id: set,
          cluster_id: clusterId,
          services: ['nats'],
          reason: 'manual',
          requested_by: 'test',
          created_at: at,
        });
        t.manager.tables.serviceBackups.finishSet(set, 'succeeded', null, null, at);
        t.manager.tables.serviceBackups.put({
          set_id: set,
          service: 'nats',
          version: '2.9.10-1',
          host_id: hostId,
          dir: `/var/lib/navin/backups/${set}/nats`,
          files: { jetstream: { path: `/var/lib/navin/backups/${set}/nats/jetstream.tgz`, sha256: 'a'.repeat(64), size: 10 } },
          operation_id: `op-${set}`,
          created_at: at,
        });
      }
    });

    it('an approval of the restore from set S does not restore set T (approval_mismatch), nor one that names no set', async () => {
      const refused = await restore('set-t');
      expect(errorOf(refused.body)).toMatchObject({
        code: 'approval_required',
        details: { action: 'restore', service: 'nats', change: { backup_set_id: 'set-t' } },
      });
      for (const change of [{ backup_set_id: 'set-s' }, null]) {
        const id = await approved(clusterId, 'restore', 'nats', change);
        const res = await restore('set-t', id);
        expect(res.status).toBe(409);
        expect(errorOf(res.body).code).toBe('approval_mismatch');
        expect(t.manager.approvals.get(id).state).toBe('approved');
      }
      expect(t.manager.tables.services.runningFor(clusterId, 'nats')).toBeUndefined();
    });

    it('the approval of set S restores set S', async () => {
      const id = await approved(clusterId, 'restore', 'nats', { backup_set_id: 'set-s' });
      const res = await restore('set-s', id);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body).toMatchObject({ action: 'restore', service: 'nats' });
      expect(t.manager.approvals.get(id).state).toBe('used');
    });
  });
});
