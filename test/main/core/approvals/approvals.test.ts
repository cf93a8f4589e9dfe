// The four-eyes rule: decided by another admin only, used once, by its requester, for exactly the approved
// action, service and cluster, within 24 hours of the approval; every step and every refused use audited.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPROVAL_TTL_MS, Approvals, type ApprovalUse } from '../../../../main/core/approvals/approvals';
import type { PublicUser } from '../../../../main/core/accounts/accounts';
import type { CoreError } from '../../../../main/core/errors';
import { ManualClock } from '../../../support/clock';
import { testManager, type TestManager } from '../../../support/manager';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as CoreError).code;
  }
  return undefined;
}

describe('Approvals', () => {
  let clock: ManualClock;
  let tm: TestManager;
  let approvals: Approvals;
  let clusterId: string;
  let otherCluster: string;
  let olga: PublicUser;
  let ada: PublicUser;
  let bob: PublicUser;
  let vic: PublicUser;

  // The audit rows of the current test only: the manager is shared by the whole file.
  let auditMark = 0;
  const auditActions = (): { action: string; actor: string; details: Record<string, unknown> }[] =>
    tm.manager.store.db
      .prepare('SELECT action, actor, details FROM audit_log WHERE action LIKE ? AND seq > ? ORDER BY seq')
      .all('approval.%', auditMark)
      .map((r) => {
        const row = r as { action: string; actor: string; details: string };
        return { ...row, details: JSON.parse(row.details) as Record<string, unknown> };
      });

  beforeAll(async () => {
    clock = new ManualClock();
    tm = testManager({ clock });
    approvals = new Approvals(tm.manager.store, tm.manager.tables, clock, tm.manager.events);
    const user = async (name: string, role: 'viewer' | 'operator' | 'admin'): Promise<PublicUser> => {
      await tm.manager.accounts.addUser(name, role, 'correct horse battery', 'test');
      const u = tm.manager.tables.accounts.userByName(name)!;
      return { id: u.id, name: u.name, role: u.role, created_at: u.created_at };
    };
    [olga, ada, bob, vic] = [
      await user('olga', 'operator'),
      await user('ada', 'admin'),
      await user('bob', 'admin'),
      await user('vic', 'viewer'),
    ];
  });
  afterAll(() => tm?.close());

  let n = 0;
  beforeEach(() => {
    n += 1;
    clusterId = tm.manager.clusters.create({ name: `edge-${n}` }, 'test').id;
    otherCluster = tm.manager.clusters.create({ name: `core-${n}` }, 'test').id;
    auditMark = (tm.manager.store.db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM audit_log').get() as { seq: number }).seq;
  });

  const ask = (user: PublicUser = olga) =>
    approvals.request({ cluster_id: clusterId, action: 'restart', service: 'opa', reason: 'stuck decision logs' }, user);
  const useBy = (user: PublicUser, over: Partial<ApprovalUse> = {}): ApprovalUse => ({
    cluster_id: clusterId,
    action: 'restart',
    service: 'opa',
    user_id: user.id,
    ...over,
  });

  it('records a pending request with the names of the people involved', () => {
    const a = ask();
    expect(a).toMatchObject({
      state: 'pending',
      action: 'restart',
      service: 'opa',
      requested_by: olga.id,
      requested_by_name: 'olga',
      decided_by_name: null,
      expires_at: null,
      usable: false,
    });
    expect(approvals.get(a.id)).toMatchObject({ id: a.id, state: 'pending' });
    expect(auditActions()).toEqual([
      expect.objectContaining({
        action: 'approval.request',
        actor: 'olga',
        details: expect.objectContaining({ action: 'restart', service: 'opa' }),
      }),
    ]);
  });

  it('refuses requests from viewers, for actions outside the rule, bad service names, missing reasons and unknown clusters', () => {
    expect(codeOf(() => ask(vic))).toBe('forbidden');
    const base = { cluster_id: clusterId, action: 'restart', service: 'opa', reason: 'r' };
    const fieldOf = (input: Record<string, unknown>): string | undefined => {
      try {
        approvals.request({ ...base, ...input }, olga);
      } catch (error) {
        return (error as CoreError).details?.field as string;
      }
      return undefined;
    };
    expect(fieldOf({ action: 'start' })).toBe('action');
    expect(fieldOf({ service: 'Not_A_Label' })).toBe('service');
    expect(fieldOf({ service: 'a'.repeat(64) })).toBe('service');
    expect(fieldOf({ reason: '  ' })).toBe('reason');
    expect(fieldOf({ reason: 'x'.repeat(501) })).toBe('reason');
    expect(codeOf(() => approvals.request({ ...base, cluster_id: 'nope' }, olga))).toBe('not_found');
    expect(approvals.list({ cluster_id: clusterId })).toHaveLength(0);
  });

  it('cannot be approved or rejected by its requester, even an admin', () => {
    const own = ask(ada);
    expect(codeOf(() => approvals.approve(own.id, ada))).toBe('approval_self');
    expect(codeOf(() => approvals.reject(own.id, ada))).toBe('approval_self');
    expect(approvals.get(own.id).state).toBe('pending');
  });

  it('is decided by an admin only, once', () => {
    const a = ask();
    expect(codeOf(() => approvals.approve(a.id, olga))).toBe('forbidden');
    const approved = approvals.approve(a.id, ada, 'go ahead');
    expect(approved).toMatchObject({
      state: 'approved',
      decided_by: ada.id,
      decided_by_name: 'ada',
      decision_note: 'go ahead',
      expires_at: new Date(clock.now().getTime() + APPROVAL_TTL_MS).toISOString(),
      usable: false,
    });
    expect(approvals.get(a.id, olga).usable).toBe(true);
    expect(codeOf(() => approvals.reject(a.id, bob))).toBe('approval_decided');
    expect(codeOf(() => approvals.approve('missing', bob))).toBe('approval_not_found');
  });

  it('is used once by its requester within 24 hours, for the command that used it', () => {
    const a = ask();
    clock.advance(3 * 3600_000);
    approvals.approve(a.id, ada);
    clock.advance(APPROVAL_TTL_MS - 1);
    const used = approvals.consume(a.id, useBy(olga), 'cmd-1');
    expect(used).toMatchObject({ state: 'used', used_by_command: 'cmd-1', used_at: clock.now().toISOString() });
    expect(approvals.get(a.id, olga)).toMatchObject({ state: 'used', used_by_command: 'cmd-1', usable: false });
    expect(auditActions().map((r) => r.action)).toEqual(['approval.request', 'approval.approve', 'approval.use']);
    expect(auditActions()[2]).toMatchObject({ actor: 'olga', details: { command_id: 'cmd-1', action: 'restart', service: 'opa' } });
  });

  it('cannot be used twice', () => {
    const a = ask();
    approvals.approve(a.id, ada);
    approvals.consume(a.id, useBy(olga), 'cmd-1');
    expect(codeOf(() => approvals.consume(a.id, useBy(olga), 'cmd-2'))).toBe('approval_used');
    expect(approvals.get(a.id).used_by_command).toBe('cmd-1');
  });

  it('cannot be used by another user, even the approving admin', () => {
    const a = ask();
    approvals.approve(a.id, ada);
    expect(codeOf(() => approvals.consume(a.id, useBy(ada), 'cmd-1'))).toBe('approval_wrong_user');
    expect(codeOf(() => approvals.consume(a.id, useBy(bob), 'cmd-1'))).toBe('approval_wrong_user');
    expect(approvals.get(a.id).state).toBe('approved');
  });

  it('cannot be used for another action, another service or another cluster, and says which', () => {
    const a = ask();
    approvals.approve(a.id, ada);
    const refusal = (over: Partial<ApprovalUse>) => {
      try {
        approvals.check(a.id, useBy(olga, over));
      } catch (error) {
        const e = error as CoreError;
        return { code: e.code, mismatch: e.details?.mismatch, message: e.message };
      }
      return undefined;
    };
    expect(refusal({ action: 'uninstall' })).toMatchObject({
      code: 'approval_wrong_target',
      mismatch: 'action',
      message: expect.stringContaining('"uninstall"'),
    });
    expect(refusal({ service: 'etcd' })).toMatchObject({
      code: 'approval_wrong_target',
      mismatch: 'service',
      message: expect.stringContaining('"etcd"'),
    });
    expect(refusal({ cluster_id: otherCluster })).toMatchObject({ code: 'approval_wrong_target', mismatch: 'cluster_id' });
    expect(codeOf(() => approvals.consume(a.id, useBy(olga, { service: 'etcd' }), 'cmd-1'))).toBe('approval_wrong_target');
    expect(approvals.get(a.id).state).toBe('approved');
  });

  it('expires 24 hours after the approval, not after the request', () => {
    const a = ask();
    clock.advance(20 * 3600_000);
    approvals.approve(a.id, ada);
    clock.advance(APPROVAL_TTL_MS);
    expect(approvals.get(a.id, olga).usable).toBe(false);
    expect(codeOf(() => approvals.consume(a.id, useBy(olga), 'cmd-1'))).toBe('approval_expired');
  });

  it('cannot be used while pending or once rejected', () => {
    const pending = ask();
    expect(codeOf(() => approvals.consume(pending.id, useBy(olga), 'cmd-1'))).toBe('approval_not_approved');
    const rejected = ask();
    expect(approvals.reject(rejected.id, bob, 'not during the audit window')).toMatchObject({
      state: 'rejected',
      expires_at: null,
      decided_by_name: 'bob',
    });
    expect(codeOf(() => approvals.consume(rejected.id, useBy(olga), 'cmd-1'))).toBe('approval_not_approved');
    expect(codeOf(() => approvals.consume('missing', useBy(olga), 'cmd-1'))).toBe('approval_not_found');
    expect(auditActions().map((r) => r.action)).toEqual(['approval.request', 'approval.request', 'approval.reject']);
  });

  it('spend: the command and the use commit together, and a refused use is audited after the rollback', () => {
    const a = ask();
    approvals.approve(a.id, ada);
    expect(
      approvals.spend(
        a.id,
        useBy(olga),
        () => ({ id: 'cmd-1' }),
        (r) => r.id,
      ),
    ).toEqual({ id: 'cmd-1' });
    let ran = false;
    expect(
      codeOf(() =>
        approvals.spend(
          a.id,
          useBy(olga),
          () => ((ran = true), { id: 'cmd-2' }),
          (r) => r.id,
        ),
      ),
    ).toBe('approval_used');
    expect(ran).toBe(false);
    const refused = auditActions().filter((r) => r.action === 'approval.use_refused');
    expect(refused).toEqual([expect.objectContaining({ actor: 'olga', details: expect.objectContaining({ code: 'approval_used' }) })]);

    // A failing operation rolls the use back: the approval stays usable.
    const b = ask();
    approvals.approve(b.id, ada);
    expect(() =>
      approvals.spend(
        b.id,
        useBy(olga),
        () => {
          throw new Error('the command could not be signed');
        },
        () => 'never',
      ),
    ).toThrow('could not be signed');
    expect(approvals.get(b.id, olga)).toMatchObject({ state: 'approved', usable: true });
  });

  it('audits a refused use reported by the caller after its transaction rolled back', () => {
    const a = ask();
    approvals.approve(a.id, ada);
    const use = useBy(bob);
    try {
      tm.manager.store.tx(() => approvals.consume(a.id, use, 'cmd-1'));
    } catch (error) {
      approvals.auditRefusal(a.id, use, error);
    }
    expect(auditActions().at(-1)).toMatchObject({
      action: 'approval.use_refused',
      actor: 'bob',
      details: { code: 'approval_wrong_user', action: 'restart', service: 'opa' },
    });
  });

  it('lists by cluster and state, newest first', () => {
    const a = ask();
    clock.advance(1000);
    const b = approvals.request({ cluster_id: otherCluster, action: 'upgrade', service: 'etcd', reason: 'r' }, olga);
    approvals.approve(b.id, ada);
    const mine = (items: { id: string }[]) => items.map((x) => x.id).filter((id) => id === a.id || id === b.id);
    expect(mine(approvals.list({}))).toEqual([b.id, a.id]);
    expect(approvals.list({ cluster_id: clusterId }).map((x) => x.id)).toEqual([a.id]);
    expect(approvals.list({ cluster_id: otherCluster, state: 'approved' }).map((x) => x.id)).toEqual([b.id]);
    expect(approvals.list({ cluster_id: clusterId, state: 'approved' })).toEqual([]);
    expect(codeOf(() => approvals.list({ state: 'maybe' }))).toBe('invalid_field');
  });
});
