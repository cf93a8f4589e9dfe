import { describe, expect, it } from 'vitest';
import type { Approval, BackupSet, CheckResult, PreflightRun, ProfileView } from '../../renderer/src/api/types';
import { createApprovalsStore, usableApprovals } from '../../renderer/src/features/approvals/store';
import { createChecksStore } from '../../renderer/src/features/checks/store';
import { createComponentsStore } from '../../renderer/src/features/components/store';
import { createConsoleSettingsStore, parseServerList } from '../../renderer/src/features/settings/store';
import { createProfileStore } from '../../renderer/src/features/profile/store';
import { createUsersStore } from '../../renderer/src/features/settings/usersStore';
import { FakeApi, alice, apiError, makeClient } from './support/fake-api';

const rule = (id: string, status: CheckResult['status']): CheckResult => ({
  id,
  title: { en: id, fr: id },
  status,
  critical: status === 'fail',
  reason: status === 'pass' ? null : { en: `${id} failed`, fr: `${id} en échec` },
  evidence: { method: 'test' },
  ran_at: '2026-01-01T00:00:00Z',
});

const profile = (status: ProfileView['status'], rules: CheckResult[]): ProfileView => ({
  cluster_id: 'c-1',
  profile: 'standard',
  status,
  rules,
  four_eyes: false,
  four_eyes_actions: [],
  evaluated_at: '2026-01-01T00:00:00Z',
});

const run = (outcome: PreflightRun['outcome']): PreflightRun => ({
  id: `run-${outcome}`,
  cluster_id: 'c-1',
  trigger: 'on_demand',
  target: null,
  started_at: '2026-01-01T00:00:00Z',
  finished_at: '2026-01-01T00:00:01Z',
  outcome,
  checks: [rule('dns.forward', outcome === 'fail' ? 'fail' : 'pass')],
  run_by: 'alice',
});

const approval = (over: Partial<Approval>): Approval => ({
  id: 'ap-1',
  cluster_id: 'c-1',
  action: 'restart',
  service: 'opa-main',
  reason: 'patch',
  state: 'approved',
  requested_by: 'u-1',
  requested_by_name: 'alice',
  requested_at: '2026-01-01T00:00:00Z',
  decided_by: 'u-2',
  decided_by_name: 'bob',
  decided_at: '2026-01-01T00:01:00Z',
  decision_note: null,
  expires_at: '2026-01-02T00:01:00Z',
  used_at: null,
  used_by_command: null,
  change: null,
  digest: null,
  diff: null,
  usable: true,
  ...over,
});

describe('profile store', () => {
  it('opens a cluster: its profile, no preflight run yet (missing, not an error), its backups newest first', async () => {
    const api = new FakeApi();
    const b = (id: string, at: string): BackupSet => ({
      id,
      cluster_id: 'c-1',
      created_at: at,
      created_by: 'alice',
      source: 'cluster',
      generation: 1,
      files: [],
    });
    api
      .on('GET /api/v1/clusters/c-1/profile', { status: 200, body: profile('blocked', [rule('profile.admin_mfa', 'fail')]) })
      .on('GET /api/v1/clusters/c-1/preflight', apiError(404, 'not_found'))
      .on('GET /api/v1/clusters/c-1/backups', {
        status: 200,
        body: { items: [b('b-old', '2026-01-01T00:00:00Z'), b('b-new', '2026-02-01T00:00:00Z')] },
      });
    const store = createProfileStore({ client: makeClient(api) });
    await store.getState().open('c-1');
    expect(store.getState()).toMatchObject({ status: 'ready', runStatus: 'missing', runError: null, backupsStatus: 'ready' });
    expect(store.getState().view?.status).toBe('blocked');
    expect(store.getState().backups.map((x) => x.id)).toEqual(['b-new', 'b-old']);
  });

  it('running the checks shows the run and re-reads the profile; a failed run keeps the last one', async () => {
    const api = new FakeApi();
    let view = profile('blocked', [rule('profile.admin_mfa', 'fail')]);
    api
      .on('GET /api/v1/clusters/c-1/profile', () => ({ status: 200, body: view }))
      .on('GET /api/v1/clusters/c-1/preflight', { status: 200, body: run('fail') })
      .on('GET /api/v1/clusters/c-1/backups', { status: 200, body: { items: [] } })
      .on('POST /api/v1/clusters/c-1/preflight', () => {
        view = profile('compliant', [rule('profile.admin_mfa', 'pass')]);
        return { status: 201, body: run('pass') };
      });
    const store = createProfileStore({ client: makeClient(api) });
    await store.getState().open('c-1');
    expect(store.getState().run?.outcome).toBe('fail');
    expect((await store.getState().runChecks())?.outcome).toBe('pass');
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().run?.outcome).toBe('pass');
    expect(store.getState().view?.status).toBe('compliant');
    api.on('POST /api/v1/clusters/c-1/preflight', apiError(403, 'forbidden'));
    expect(await store.getState().runChecks()).toBeNull();
    expect(store.getState().running.error?.code).toBe('forbidden');
    expect(store.getState().run?.outcome).toBe('pass');
  });

  it('changes the profile with PUT and backs up now', async () => {
    const api = new FakeApi();
    api
      .on('GET /api/v1/clusters/c-1/profile', { status: 200, body: profile('compliant', []) })
      .on('PUT /api/v1/clusters/c-1/profile', (req) => ({
        status: 200,
        body: { ...profile('blocked', []), profile: (req.body as { profile: string }).profile },
      }))
      .on('POST /api/v1/clusters/c-1/backups', {
        status: 201,
        body: {
          id: 'b-1',
          created_at: '2026-03-01T00:00:00Z',
          created_by: 'alice',
          files: [{ name: 'etcd', file: 'snap.db', sha256: 'ab', size: 3 }],
        },
      });
    const store = createProfileStore({ client: makeClient(api) });
    await store.getState().bind('c-1');
    expect(await store.getState().setProfile('banking-secure')).toBe(true);
    expect(api.callsTo('PUT', '/api/v1/clusters/c-1/profile')[0]?.body).toEqual({ profile: 'banking-secure' });
    expect(store.getState().view?.profile).toBe('banking-secure');
    // Leaving a four-eyes profile carries the approval it was granted.
    expect(await store.getState().setProfile('standard', 'ap-7')).toBe(true);
    expect(api.callsTo('PUT', '/api/v1/clusters/c-1/profile')[1]?.body).toEqual({ profile: 'standard', approval_id: 'ap-7' });
    expect((await store.getState().backUpNow())?.id).toBe('b-1');
    // A restore names the component and, under four eyes, its approval; a refusal keeps its code.
    api.on('POST /api/v1/clusters/c-1/backups/b-1/restore', { status: 202, body: { id: 'cmd-restore-1' } });
    expect(await store.getState().restore('b-1', 'opa', 'ap-9')).toBe(true);
    expect(api.callsTo('POST', '/api/v1/clusters/c-1/backups/b-1/restore')[0]?.body).toEqual({ service: 'opa', approval_id: 'ap-9' });
    expect(store.getState().restoring.done).toBe('cmd-restore-1');
    api.on('POST /api/v1/clusters/c-1/backups/b-1/restore', apiError(409, 'backup_modified'));
    expect(await store.getState().restore('b-1', 'opa')).toBe(false);
    expect(store.getState().restoring.error?.code).toBe('backup_modified');
    expect(store.getState().backups[0]?.files[0]?.sha256).toBe('ab');
  });
});

describe('approvals store', () => {
  it('lists with the filter in the query, requests, and decides with a note', async () => {
    const api = new FakeApi();
    api
      .on('GET /api/v1/approvals?cluster_id=c-1&state=pending', {
        status: 200,
        body: { items: [approval({ state: 'pending', usable: false })] },
      })
      .on('POST /api/v1/approvals', (req) => ({
        status: 201,
        body: approval({ id: 'ap-2', state: 'pending', usable: false, requested_at: '2026-01-03T00:00:00Z', ...(req.body as object) }),
      }))
      .on('POST /api/v1/approvals/ap-1/approve', { status: 200, body: approval({}) });
    const store = createApprovalsStore({ client: makeClient(api), eventDebounceMs: 0 });
    await store.getState().setFilter({ cluster_id: 'c-1', state: 'pending' });
    expect(store.getState().items.map((a) => a.id)).toEqual(['ap-1']);
    store.getState().prefill({ cluster_id: 'c-1', action: 'stop', service: 'nats' });
    const created = await store.getState().request({ cluster_id: 'c-1', action: 'stop', service: 'nats', reason: 'maintenance' });
    expect(created?.id).toBe('ap-2');
    expect(store.getState().draft).toBeNull();
    expect(store.getState().items.map((a) => a.id)).toEqual(['ap-2', 'ap-1']);
    await store.getState().decide('ap-1', 'approve', 'ok for tonight');
    expect(api.callsTo('POST', '/api/v1/approvals/ap-1/approve')[0]?.body).toEqual({ note: 'ok for tonight' });
    expect(store.getState().items.find((a) => a.id === 'ap-1')?.state).toBe('approved');
  });

  it('keeps the refusal of a decision on the approval it was about', async () => {
    const api = new FakeApi();
    api.on('POST /api/v1/approvals/ap-1/reject', apiError(403, 'approval_self'));
    const store = createApprovalsStore({ client: makeClient(api) });
    expect(await store.getState().decide('ap-1', 'reject')).toBeNull();
    expect(store.getState().decision).toMatchObject({ id: 'ap-1', pending: false });
    expect(store.getState().decision.error?.code).toBe('approval_self');
  });

  it('offers only usable approvals of exactly this action, service and cluster', () => {
    const items = [
      approval({ id: 'ok' }),
      approval({ id: 'used', usable: false, state: 'used' }),
      approval({ id: 'other-action', action: 'stop' }),
      approval({ id: 'other-service', service: 'nats' }),
      approval({ id: 'other-cluster', cluster_id: 'c-2' }),
    ];
    expect(usableApprovals(items, 'c-1', 'restart', 'opa-main').map((a) => a.id)).toEqual(['ok']);
  });
});

describe('component operations', () => {
  it('sends stop / restart with the approval, and delete with ?approval_id=', async () => {
    const api = new FakeApi();
    const command = { id: 'cmd-1', cluster_id: 'c-1', op: 'managedcomponent.apply', action: 'restart', state: 'queued' };
    api
      .on('GET /api/v1/clusters/c-1/components', { status: 200, body: { cluster_id: 'c-1', generation: 1, desired: {} } })
      .on('POST /api/v1/clusters/c-1/components/opa-main/actions', { status: 202, body: command })
      .on('DELETE /api/v1/clusters/c-1/components/opa-main?approval_id=ap-9', { status: 202, body: { ...command, id: 'cmd-2' } });
    const store = createComponentsStore({ client: makeClient(api), eventDebounceMs: 0 });
    await store.getState().load('c-1');
    expect((await store.getState().runAction('opa-main', 'restart', 'ap-1'))?.id).toBe('cmd-1');
    expect(api.callsTo('POST', '/api/v1/clusters/c-1/components/opa-main/actions')[0]?.body).toEqual({
      action: 'restart',
      approval_id: 'ap-1',
    });
    expect(store.getState().action).toMatchObject({ name: 'opa-main', action: 'restart', pending: false });
    await store.getState().runAction('opa-main', 'stop');
    expect(api.callsTo('POST', '/api/v1/clusters/c-1/components/opa-main/actions')[1]?.body).toEqual({ action: 'stop' });
    expect((await store.getState().removeComponent('opa-main', 'ap-9'))?.id).toBe('cmd-2');
  });

  it('keeps a lifecycle refusal with its details for the screen to explain', async () => {
    const api = new FakeApi();
    api
      .on('GET /api/v1/clusters/c-1/components', { status: 200, body: { cluster_id: 'c-1', generation: 1, desired: {} } })
      .on('POST /api/v1/clusters/c-1/components', {
        status: 409,
        body: {
          error: {
            code: 'profile_blocked',
            message: 'blocked',
            details: { profile: 'standard', failing: [rule('profile.admin_mfa', 'fail')] },
          },
        },
      });
    const store = createComponentsStore({ client: makeClient(api), eventDebounceMs: 0 });
    await store.getState().load('c-1');
    expect(await store.getState().applyComponent('opa-main', { component: 'opa', version: '1.0.0' })).toBeNull();
    const error = store.getState().apply.error;
    expect(error?.code).toBe('profile_blocked');
    expect((error?.details as { failing: CheckResult[] }).failing[0]?.id).toBe('profile.admin_mfa');
  });
});

describe('checks screen store', () => {
  it('reads a cluster\u2019s latest run once, says "never checked" on 404, and runs on demand', async () => {
    const api = new FakeApi();
    api
      .on('GET /api/v1/clusters/c-1/preflight', { status: 200, body: run('warn') })
      .on('GET /api/v1/clusters/c-2/preflight', apiError(404, 'not_found'))
      .on('POST /api/v1/clusters/c-2/preflight', { status: 201, body: { ...run('pass'), cluster_id: 'c-2' } });
    const store = createChecksStore({ client: makeClient(api) });
    await Promise.all([store.getState().ensure('c-1'), store.getState().ensure('c-2')]);
    await store.getState().ensure('c-1');
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/preflight')).toHaveLength(1);
    expect(store.getState().runs['c-1']).toMatchObject({ status: 'ready', run: { outcome: 'warn' } });
    expect(store.getState().runs['c-2']).toMatchObject({ status: 'missing', run: null });
    await store.getState().run('c-2');
    expect(store.getState().runs['c-2']).toMatchObject({ status: 'ready', running: false, run: { outcome: 'pass' } });
  });
});

describe('console settings and users', () => {
  it('saves the syslog target, tests it, and clears it', async () => {
    const api = new FakeApi();
    let target: unknown = null;
    api
      .on('GET /api/v1/settings/syslog', () => ({ status: 200, body: { target, forwarder: { sent: 0 } } }))
      .on('PUT /api/v1/settings/syslog', (req) => {
        target = req.body;
        return { status: 200, body: { target } };
      })
      .on('DELETE /api/v1/settings/syslog', () => {
        target = null;
        return { status: 204, body: undefined };
      })
      .on('POST /api/v1/settings/syslog/test', { status: 200, body: { reachable: false, message: 'connection refused' } });
    const store = createConsoleSettingsStore({ client: makeClient(api) });
    await store.getState().loadSyslog();
    expect(store.getState().syslog.value?.target).toBeNull();
    expect(await store.getState().saveSyslog({ host: 'logs.internal', port: 6514, transport: 'tcp' })).toBe(true);
    expect(store.getState().syslog.value?.target).toEqual({ host: 'logs.internal', port: 6514, transport: 'tcp' });
    expect((await store.getState().testSyslog())?.reachable).toBe(false);
    expect(store.getState().syslogTest.result?.message).toBe('connection refused');
    expect(await store.getState().clearSyslog()).toBe(true);
    expect(store.getState().syslog.value?.target).toBeNull();
  });

  it('saves DNS servers typed one per line or with commas, and shows a refused mirror on its field', async () => {
    expect(parseServerList(' 10.0.0.53\n10.0.0.54, 192.168.1.1 \n\n')).toEqual(['10.0.0.53', '10.0.0.54', '192.168.1.1']);
    const api = new FakeApi();
    api
      .on('PUT /api/v1/settings/dns', (req) => ({ status: 200, body: req.body }))
      .on('PUT /api/v1/settings/mirror', apiError(400, 'invalid_field', 'the mirror is reached over https:// only', 'url'));
    const store = createConsoleSettingsStore({ client: makeClient(api) });
    expect(await store.getState().saveDns(['10.0.0.53'])).toBe(true);
    expect(store.getState().dns.value?.servers).toEqual(['10.0.0.53']);
    expect(await store.getState().saveMirror({ url: 'http://m', ca_pem: null })).toBe(false);
    expect(store.getState().mirror.save.error?.field).toBe('url');
  });

  it('resets the second factor of an account and shows it as not set up', async () => {
    const api = new FakeApi();
    api
      .on('GET /api/v1/users', { status: 200, body: { items: [{ ...alice, mfa_enrolled: true }] } })
      .on('DELETE /api/v1/users/alice/mfa', { status: 204, body: undefined });
    const store = createUsersStore({ client: makeClient(api) });
    await store.getState().load();
    expect(store.getState().items[0]?.mfa_enrolled).toBe(true);
    expect(await store.getState().resetMfa('alice')).toBe(true);
    expect(store.getState().items[0]?.mfa_enrolled).toBe(false);
  });
});
