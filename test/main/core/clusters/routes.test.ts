import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';
import type { Credentials } from '../../../../main/core/http/router';

describe('clusters API', () => {
  let t: TestManager;
  let admin: Credentials;
  let viewer: Credentials;

  beforeAll(async () => {
    t = testManager();
    admin = await t.login('alice', 'admin');
    viewer = await t.login('victor', 'viewer');
  });
  afterAll(() => t.close());

  test('health and version need no login', async () => {
    expect((await t.call('GET', '/api/v1/health')).body).toMatchObject({ status: 'ok' });
    expect((await t.call('GET', '/api/v1/version')).body).toMatchObject({ name: 'navin-manager', api: 'v1', mode: 'headless' });
  });

  test('every other route needs a login', async () => {
    const res = await t.call('GET', '/api/v1/clusters');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: 'unauthenticated' } });
  });

  test('create, list, get, patch and delete a cluster, each change audited', async () => {
    const created = await t.call('POST', '/api/v1/clusters', { name: 'edge-paris-1', description: 'Paris edge' }, admin);
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(created.body).toMatchObject({ name: 'edge-paris-1', state: 'pending', tenant: 'default' });

    const list = await t.call('GET', '/api/v1/clusters', undefined, viewer);
    expect((list.body as { items: { name: string }[] }).items.map((c) => c.name)).toContain('edge-paris-1');
    expect((await t.call('GET', `/api/v1/clusters/${id}`, undefined, viewer)).body).toMatchObject({ id });

    const patched = await t.call('PATCH', `/api/v1/clusters/${id}`, { description: 'renamed', name: 'edge-paris-2' }, admin);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'edge-paris-2', description: 'renamed' });

    expect((await t.call('DELETE', `/api/v1/clusters/${id}`, undefined, admin)).status).toBe(204);
    expect((await t.call('GET', `/api/v1/clusters/${id}`, undefined, admin)).status).toBe(404);

    const actions = t.manager.store.audit.list({ cluster_id: id }).map((r) => r.action);
    expect(actions).toEqual(['cluster.delete', 'cluster.update', 'cluster.create']);
    expect(t.manager.store.audit.verify().ok).toBe(true);
  });

  test.each([['Bad_Name'], ['-edge'], ['edge-'], [''], ['a'.repeat(254)], ['UPPER']])(
    'the name %j is refused with a clear 400',
    async (name) => {
      const res = await t.call('POST', '/api/v1/clusters', { name }, admin);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'invalid_field', field: 'name' } });
      expect((res.body as { error: { message: string } }).error.message).toMatch(/name/);
    },
  );

  test('a second cluster with the same name is a 409', async () => {
    await t.call('POST', '/api/v1/clusters', { name: 'twin.example' }, admin);
    const res = await t.call('POST', '/api/v1/clusters', { name: 'twin.example' }, admin);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: { code: 'name_taken' } });
  });

  test('a body that is not an object is a 400', async () => {
    const res = await t.call('POST', '/api/v1/clusters', ['x'], admin);
    expect(res.status).toBe(400);
  });

  test('a viewer cannot create, change or delete', async () => {
    const res = await t.call('POST', '/api/v1/clusters', { name: 'viewer-made' }, viewer);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: { code: 'forbidden' } });
  });

  test('a viewer cannot apply or delete a component, nor issue a command', async () => {
    const c = (await t.call('POST', '/api/v1/clusters', { name: 'viewer-target' }, admin)).body as { id: string };
    const apply = await t.call(
      'POST',
      `/api/v1/clusters/${c.id}/components`,
      { name: 'policy', spec: { component: 'opa', version: '1.0.0' } },
      viewer,
    );
    expect(apply.status).toBe(403);
    expect((await t.call('DELETE', `/api/v1/clusters/${c.id}/components/policy`, undefined, viewer)).status).toBe(403);
    expect((await t.call('POST', `/api/v1/clusters/${c.id}/inventory/report`, undefined, viewer)).status).toBe(403);
    expect(t.manager.tables.commands.list({ cluster_id: c.id })).toHaveLength(0);
  });

  test('a state-changing request without the CSRF token is refused', async () => {
    const res = await t.call('POST', '/api/v1/clusters', { name: 'no-csrf' }, { session: admin.session });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: { code: 'csrf_missing' } });
    const wrong = await t.call('POST', '/api/v1/clusters', { name: 'no-csrf' }, { session: admin.session, csrf: 'nope' });
    expect(wrong.status).toBe(403);
    expect(t.manager.tables.clusters.byName('no-csrf')).toBeUndefined();
  });

  test('an API token works as Bearer without CSRF, an unknown one is refused', async () => {
    const token = t.manager.accounts.createApiToken('alice', 'test');
    const res = await t.call('POST', '/api/v1/clusters', { name: 'scripted' }, { bearer: token });
    expect(res.status).toBe(201);
    expect((await t.call('GET', '/api/v1/clusters', undefined, { bearer: 'navin_bogus' })).status).toBe(401);
  });

  test('an unknown route is a 404 and a wrong method a 405', async () => {
    expect((await t.call('GET', '/api/v1/nope', undefined, admin)).status).toBe(404);
    expect((await t.call('PUT', '/api/v1/clusters', {}, admin)).status).toBe(405);
  });
});
