// The approvals API: an operator requests, another admin decides, each change announced; the requester sees
// the approval usable, nobody else does; refusals carry their stable codes and statuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../../main/core/approvals/approvals';
import { Router, type ApiResult, type Credentials, type Method } from '../../../../main/core/http/router';
import { approvalRoutes } from '../../../../main/core/approvals/routes';
import type { CoreEvent } from '../../../../main/core/events';
import { testManager, type TestManager } from '../../../support/manager';

describe('approvals API', () => {
  let tm: TestManager;
  let router: Router;
  let op: Credentials;
  let ada: Credentials;
  let bob: Credentials;
  let viewer: Credentials;
  let clusterId: string;
  const events: CoreEvent[] = [];

  const call = (method: Method, path: string, body: unknown, credentials: Credentials): Promise<ApiResult> => {
    const url = new URL(path, 'https://x');
    return router.handle(tm.manager, { method, path: url.pathname, query: url.searchParams, body, credentials });
  };
  const errorOf = (res: ApiResult) => ({ status: res.status, code: (res.body as { error?: { code: string } }).error?.code });

  beforeAll(async () => {
    tm = testManager();
    router = new Router();
    approvalRoutes(router);
    op = await tm.login('olga', 'operator');
    ada = await tm.login('ada', 'admin');
    bob = await tm.login('bob', 'admin');
    viewer = await tm.login('vic', 'viewer');
    clusterId = tm.manager.clusters.create({ name: 'edge' }, 'test').id;
    tm.manager.events.subscribe((e) => events.push(e));
  });
  afterAll(() => tm?.close());

  const request = async (credentials: Credentials = op): Promise<ApprovalView> => {
    const res = await call(
      'POST',
      '/api/v1/approvals',
      { cluster_id: clusterId, action: 'upgrade', service: 'etcd', reason: 'etcd 3.5.21' },
      credentials,
    );
    expect(res.status).toBe(201);
    return res.body as ApprovalView;
  };

  it('creates a pending request (201) and announces it', async () => {
    const a = await request();
    expect(a).toMatchObject({ state: 'pending', requested_by_name: 'olga', usable: false });
    expect(events).toContainEqual({ type: 'approval.changed', data: { id: a.id, cluster_id: clusterId } });
  });

  it('refuses a request from a viewer and an invalid one', async () => {
    expect(
      errorOf(await call('POST', '/api/v1/approvals', { cluster_id: clusterId, action: 'upgrade', service: 'etcd', reason: 'r' }, viewer)),
    ).toEqual({ status: 403, code: 'forbidden' });
    const bad = await call(
      'POST',
      '/api/v1/approvals',
      { cluster_id: clusterId, action: 'delete-everything', service: 'etcd', reason: 'r' },
      op,
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'invalid_field', field: 'action' } });
  });

  it('is approved by another admin only, and then usable by its requester alone', async () => {
    const a = await request(ada);
    expect(errorOf(await call('POST', `/api/v1/approvals/${a.id}/approve`, {}, op))).toEqual({ status: 403, code: 'forbidden' });
    expect(errorOf(await call('POST', `/api/v1/approvals/${a.id}/approve`, {}, ada))).toEqual({ status: 403, code: 'approval_self' });
    events.length = 0;
    const approved = await call('POST', `/api/v1/approvals/${a.id}/approve`, { note: 'window 22:00' }, bob);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ state: 'approved', decided_by_name: 'bob', decision_note: 'window 22:00' });
    expect(events).toEqual([{ type: 'approval.changed', data: { id: a.id, cluster_id: clusterId } }]);
    expect(((await call('GET', `/api/v1/approvals/${a.id}`, undefined, ada)).body as ApprovalView).usable).toBe(true);
    expect(((await call('GET', `/api/v1/approvals/${a.id}`, undefined, bob)).body as ApprovalView).usable).toBe(false);
    expect(errorOf(await call('POST', `/api/v1/approvals/${a.id}/reject`, undefined, bob))).toEqual({
      status: 409,
      code: 'approval_decided',
    });
  });

  it('is rejected with a note', async () => {
    const a = await request();
    const res = await call('POST', `/api/v1/approvals/${a.id}/reject`, { note: 'not during the freeze' }, ada);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'rejected', decision_note: 'not during the freeze', expires_at: null });
  });

  it('lists for viewers, filtered by cluster and state', async () => {
    const all = (await call('GET', '/api/v1/approvals', undefined, viewer)).body as { items: ApprovalView[] };
    expect(all.items.length).toBeGreaterThanOrEqual(3);
    const rejected = (await call('GET', `/api/v1/approvals?cluster_id=${clusterId}&state=rejected`, undefined, viewer)).body as {
      items: ApprovalView[];
    };
    expect(rejected.items.length).toBeGreaterThan(0);
    expect(rejected.items.every((x) => x.state === 'rejected' && x.cluster_id === clusterId)).toBe(true);
    expect(((await call('GET', '/api/v1/approvals?cluster_id=other', undefined, viewer)).body as { items: unknown[] }).items).toEqual([]);
    expect(errorOf(await call('GET', '/api/v1/approvals?state=maybe', undefined, viewer))).toEqual({ status: 400, code: 'invalid_field' });
    expect(errorOf(await call('GET', '/api/v1/approvals/nope', undefined, viewer))).toEqual({ status: 404, code: 'approval_not_found' });
  });
});
