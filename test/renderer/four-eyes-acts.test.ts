// The console's forms of the four-eyes acts that are no lifecycle operation (a new admin, an admin's factor reset,
// a release key, a cluster's or a host's deletion, a re-issued host or cluster agent identity, a backup that stops a
// server): each sends the approval picked, the picker offers only the requester's
// usable approvals of that exact act and target, and a cluster_not_empty refusal lists what is still installed.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Approval } from '../../renderer/src/api/types';
import { ApiError } from '../../renderer/src/api/client';
import { makeTranslator } from '../../renderer/src/i18n';
import { usableApprovals } from '../../renderer/src/features/approvals/store';
import { createClustersStore } from '../../renderer/src/features/clusters/store';
import { createClusterSetupStore } from '../../renderer/src/features/cluster/clusterSetup';
import { createHostsStore } from '../../renderer/src/features/hosts/store';
import { createMirrorStore } from '../../renderer/src/features/mirror/store';
import { createUsersStore } from '../../renderer/src/features/settings/usersStore';
import { approvalTargetOf, asksForApproval, draftOf, RetryWithApproval } from '../../renderer/src/features/approvals/RetryWithApproval';
import { installedOf } from '../../renderer/src/features/clusters/ClusterDetails';
import { ApprovalSelect } from '../../renderer/src/features/approvals/ApprovalPicker';
import { FakeApi, alice, apiError, makeClient } from './support/fake-api';

const approval = (over: Partial<Approval>): Approval => ({
  id: 'ap-00000001',
  cluster_id: null,
  action: 'create_admin',
  service: 'carol',
  reason: 'new on-call admin',
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
  change: { role: 'admin' },
  digest: 'a'.repeat(64),
  diff: null,
  usable: true,
  ...over,
});

describe('the stores send the approval picked', () => {
  it('creating an admin: refused approval_required, then created with the approval in its body', async () => {
    const api = new FakeApi().on('POST /api/v1/users', (req) =>
      (req.body as { approval_id?: string }).approval_id
        ? { status: 201, body: { ...alice, id: 'u-3', name: 'carol' } }
        : apiError(403, 'approval_required'),
    );
    const store = createUsersStore({ client: makeClient(api) });
    expect(await store.getState().create({ name: 'carol', role: 'admin', password: 'correct horse battery' })).toBeNull();
    expect(asksForApproval(store.getState().creation.error)).toBe(true);
    const created = await store.getState().create({ name: 'carol', role: 'admin', password: 'correct horse battery', approval_id: 'ap-1' });
    expect(created?.name).toBe('carol');
    expect(api.callsTo('POST', '/api/v1/users')[1]?.body).toMatchObject({ name: 'carol', approval_id: 'ap-1' });
  });

  it("resetting an admin's factor carries the approval as approval_id", async () => {
    const api = new FakeApi()
      .on('DELETE /api/v1/users/bob/mfa', apiError(403, 'approval_required'))
      .on('DELETE /api/v1/users/bob/mfa?approval_id=ap-2', { status: 204, body: null });
    const store = createUsersStore({ client: makeClient(api) });
    expect(await store.getState().resetMfa('bob')).toBe(false);
    expect(store.getState().mfaReset).toMatchObject({ name: 'bob', error: { code: 'approval_required' } });
    expect(await store.getState().resetMfa('bob', 'ap-2')).toBe(true);
    expect(api.callsTo('DELETE', '/api/v1/users/bob/mfa?approval_id=ap-2')).toHaveLength(1);
  });

  it('trusting a release key carries the approval in its body', async () => {
    const api = new FakeApi()
      .on('POST /api/v1/settings/release-keys', {
        status: 201,
        body: { key_id: 'k-1', label: 'ci', added_at: '2026-01-01T00:00:00Z', added_by: 'alice' },
      })
      .on('GET /api/v1/settings/release-keys', { status: 200, body: { keys: [] } });
    const store = createMirrorStore({ client: makeClient(api), eventDebounceMs: 0 });
    expect(await store.getState().trustKey('-----BEGIN PUBLIC KEY-----', 'ci', 'ap-3')).toBe(true);
    expect(api.callsTo('POST', '/api/v1/settings/release-keys')[0]?.body).toEqual({
      public_key_pem: '-----BEGIN PUBLIC KEY-----',
      label: 'ci',
      approval_id: 'ap-3',
    });
  });

  it('deleting a cluster carries the approval as approval_id, and keeps a cluster_not_empty refusal with its list', async () => {
    const api = new FakeApi()
      .on('DELETE /api/v1/clusters/c-1', {
        status: 409,
        body: { error: { code: 'cluster_not_empty', message: 'still holds nats', details: { services: ['nats'], components: [] } } },
      })
      .on('DELETE /api/v1/clusters/c-1?approval_id=ap-4', { status: 204, body: null });
    const store = createClustersStore({ client: makeClient(api), eventDebounceMs: 0 });
    expect(await store.getState().remove('c-1')).toBe(false);
    expect(store.getState().mutation.error).toMatchObject({ code: 'cluster_not_empty', details: { services: ['nats'] } });
    expect(await store.getState().remove('c-1', 'ap-4')).toBe(true);
  });
});

describe('the identities, a host and a backup send the approval picked', () => {
  it("re-issuing a host's identity carries the approval in its body", async () => {
    const api = new FakeApi().on('POST /api/v1/hosts/h-1/agent', { status: 201, body: { host_id: 'h-1' } });
    const store = createHostsStore({ client: makeClient(api) });
    await store.getState().issueIdentity('h-1', 'https://manager.example:8462', undefined, 'ap-5');
    expect(api.callsTo('POST', '/api/v1/hosts/h-1/agent')[0]?.body).toEqual({
      gateway_url: 'https://manager.example:8462',
      approval_id: 'ap-5',
    });
  });

  it("re-issuing a cluster agent's identity carries the approval in its body", async () => {
    const api = new FakeApi().on('POST /api/v1/clusters/c-1/kubernetes/agent', apiError(403, 'approval_required'));
    const store = createClusterSetupStore({ client: makeClient(api) });
    store.getState().bind('c-1');
    await store.getState().issueIdentity({ gateway_url: 'https://manager.example:8462', approval_id: 'ap-6' });
    expect(api.callsTo('POST', '/api/v1/clusters/c-1/kubernetes/agent')[0]?.body).toMatchObject({ approval_id: 'ap-6' });
    expect(asksForApproval(store.getState().identity.error)).toBe(true);
  });

  it('deleting a host and backing up services carry the approval', async () => {
    const api = new FakeApi()
      .on('DELETE /api/v1/hosts/h-1?approval_id=ap-7', { status: 204, body: null })
      .on('POST /api/v1/clusters/c-1/service-backups', { status: 201, body: { id: 's-1' } });
    const client = makeClient(api);
    await client.removeHost('h-1', 'ap-7');
    expect(api.callsTo('DELETE', '/api/v1/hosts/h-1?approval_id=ap-7')).toHaveLength(1);
    await client.backUpServices('c-1', undefined, 'ap-8');
    await client.backUpServices('c-1', ['nats']);
    expect(api.callsTo('POST', '/api/v1/clusters/c-1/service-backups').map((c) => c.body)).toEqual([
      { approval_id: 'ap-8' },
      { services: ['nats'] },
    ]);
  });

  it("a backup's approval names the services as the refusal gives them (the manager chose them)", () => {
    const refused = new ApiError({
      code: 'approval_required',
      status: 403,
      message: 'x',
      details: { action: 'backup', service: 'etcd,nats' },
    });
    expect(approvalTargetOf(refused, 'nats')).toBe('etcd,nats');
    expect(approvalTargetOf(new ApiError({ code: 'approval_used', status: 409, message: 'x' }), 'nats')).toBe('nats');
  });
});

describe('the approval picker of an act', () => {
  it('offers only the usable approvals of that act on that target (on the manager: of no cluster)', () => {
    const items = [
      approval({ id: 'ok-00001' }),
      approval({ id: 'other-name', service: 'mallory' }),
      approval({ id: 'used-0001', usable: false, state: 'used' }),
      approval({ id: 'of-a-cluster', cluster_id: 'c-1' }),
      approval({ id: 'other-act', action: 'reset_admin_mfa' }),
    ];
    const usable = usableApprovals(items, null, 'create_admin', 'carol');
    expect(usable.map((a) => a.id)).toEqual(['ok-00001']);
    const html = renderToStaticMarkup(
      createElement(ApprovalSelect, { action: 'create_admin', usable, state: ['', () => {}], idSuffix: 'x' }),
    );
    expect(html).toContain('value="ok-00001"');
    expect(html).toContain('Approval for Create an administrator');
  });

  it("a cluster's deletion is picked among that cluster's approvals", () => {
    const items = [
      approval({ id: 'del-c1-01', cluster_id: 'c-1', action: 'delete_cluster', service: 'bank' }),
      approval({ id: 'del-c2-01', cluster_id: 'c-2', action: 'delete_cluster', service: 'bank' }),
    ];
    expect(usableApprovals(items, 'c-1', 'delete_cluster', 'bank').map((a) => a.id)).toEqual(['del-c1-01']);
  });

  it('is offered after any refusal about an approval (required, mismatch, used), not after others', () => {
    const e = (code: string) => new ApiError({ code, status: 409, message: code });
    for (const code of ['approval_required', 'approval_mismatch', 'approval_used']) expect(asksForApproval(e(code))).toBe(true);
    for (const code of ['cluster_not_empty', 'forbidden']) expect(asksForApproval(e(code))).toBe(false);
    expect(asksForApproval(null)).toBe(false);
  });

  it('its button launches the act again', () => {
    const html = renderToStaticMarkup(
      createElement(RetryWithApproval, {
        clusterId: null,
        action: 'trust_release_key',
        service: 'release-key',
        pending: false,
        onRetry: () => {},
        idSuffix: 'k',
      }),
    );
    expect(html).toContain('data-testid="retry-with-approval"');
    expect(html).toContain('Launch with this approval');
  });
});

describe('requesting the approval a refusal asks for', () => {
  const refused = new ApiError({
    code: 'approval_required',
    status: 403,
    message: 'x',
    details: { action: 'create_admin', service: 'carol', change: { role: 'admin' } },
  });

  it('prefills the request with the exact change the refusal names (an act on the manager: no cluster)', () => {
    expect(draftOf(refused, null, 'create_admin', 'carol')).toEqual({
      cluster_id: '',
      action: 'create_admin',
      service: 'carol',
      change: { role: 'admin' },
    });
    const backup = new ApiError({
      code: 'approval_required',
      status: 403,
      message: 'x',
      details: { service: 'etcd,nats', change: { services: ['etcd', 'nats'] } },
    });
    expect(draftOf(backup, 'c-1', 'backup', 'nats')).toEqual({
      cluster_id: 'c-1',
      action: 'backup',
      service: 'etcd,nats',
      change: { services: ['etcd', 'nats'] },
    });
  });

  it('is offered beside the picker after approval_required only', () => {
    const render = (refusal: ApiError) =>
      renderToStaticMarkup(
        createElement(RetryWithApproval, {
          clusterId: null,
          action: 'create_admin',
          service: 'carol',
          refusal,
          pending: false,
          onRetry: () => {},
          idSuffix: 'r',
        }),
      );
    expect(render(refused)).toContain('data-testid="request-approval"');
    expect(render(new ApiError({ code: 'approval_mismatch', status: 409, message: 'x' }))).not.toContain('request-approval');
  });
});

describe('refusals in clear words', () => {
  it('a cluster_not_empty refusal lists what is still installed, in English and French', () => {
    const list = installedOf({ services: ['nats', 'etcd'], components: ['opa'], other: 1 }).join(', ');
    expect(makeTranslator('en')('clusters.details.notEmpty', { list })).toBe('Still installed there: nats, etcd, opa.');
    expect(makeTranslator('fr')('clusters.details.notEmpty', { list })).toBe('Encore installés : nats, etcd, opa.');
    expect(installedOf(undefined)).toEqual([]);
  });
});
