// Server-side apply and managedFields without kubectl: who owns what after each write, the 409 a conflicting
// apply gets (its causes), force, pruning of what an applier stops setting, and before-first-apply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeRequest } from './rest-client.js';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';

let server: KubeApiServer;
beforeAll(async () => {
  server = await startKubeApiServer();
});
afterAll(() => server.close());

const APPLY = 'application/apply-patch+yaml';
const path = (name: string): string => `/api/v1/namespaces/default/configmaps/${name}`;
const apply = (name: string, manager: string, data: Record<string, string>, force = false): ReturnType<typeof kubeRequest> =>
  kubeRequest(
    server.kubeConfig(),
    'PATCH',
    `${path(name)}?fieldManager=${manager}${force ? '&force=true' : ''}`,
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
    APPLY,
  );
const managed = (name: string): { manager: string; operation: string; fieldsV1: object }[] =>
  (server.store.get('v1', 'ConfigMap', name, 'default')?.metadata.managedFields ?? []) as {
    manager: string;
    operation: string;
    fieldsV1: object;
  }[];

describe('server-side apply', () => {
  it('creates the object, owned by the applier exactly as configured', async () => {
    const r = await apply('ssa1', 'alice', { a: '1', b: '2' });
    expect(r.status).toBe(201);
    expect(managed('ssa1')).toEqual([
      expect.objectContaining({
        manager: 'alice',
        operation: 'Apply',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} } },
      }),
    ]);
  });

  it('refuses to change a field another applier owns (409, one FieldManagerConflict cause), shares equal values, and force takes it', async () => {
    const conflict = await apply('ssa1', 'bob', { a: 'other' });
    expect(conflict.status).toBe(409);
    expect(JSON.parse(conflict.text)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "alice": .data.a',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.a' }] },
      code: 409,
    });
    expect((await apply('ssa1', 'bob', { a: '1' })).status).toBe(200);
    expect(managed('ssa1').map((m) => m.manager)).toEqual(['alice', 'bob']);
    expect((await apply('ssa1', 'carol', { a: '3' }, true)).status).toBe(200);
    expect(server.store.get('v1', 'ConfigMap', 'ssa1', 'default')?.data).toEqual({ a: '3', b: '2' });
    const owners = Object.fromEntries(managed('ssa1').map((m) => [m.manager, m.fieldsV1]));
    expect(owners).toEqual({ alice: { 'f:data': { 'f:b': {} } }, carol: { 'f:data': { 'f:a': {} } } });
  });

  it('removes what an applier stops setting unless another manager owns it', async () => {
    await apply('ssa2', 'alice', { a: '1', b: '2', c: '3' });
    await apply('ssa2', 'bob', { c: '3' });
    await apply('ssa2', 'alice', { a: '1' });
    expect(server.store.get('v1', 'ConfigMap', 'ssa2', 'default')?.data).toEqual({ a: '1', c: '3' });
  });

  it('an update records its manager (Update, from the User-Agent when no fieldManager) and takes the fields it changes', async () => {
    await apply('ssa3', 'alice', { a: '1' });
    const r = await kubeRequest(
      server.kubeConfig(),
      'PATCH',
      path('ssa3'),
      JSON.stringify({ data: { a: '2' } }),
      'application/merge-patch+json',
      {
        'User-Agent': 'ops-tool/1.0 (linux)',
      },
    );
    expect(r.status).toBe(200);
    expect(managed('ssa3').map((m) => [m.manager, m.operation, m.fieldsV1])).toEqual([['ops-tool', 'Update', { 'f:data': { 'f:a': {} } }]]);
    const refused = await apply('ssa3', 'alice', { a: '1' });
    expect(JSON.parse(refused.text)).toMatchObject({
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "ops-tool" using v1: .data.a',
    });
  });

  it('the first apply to an object nobody managed gives its fields to before-first-apply', async () => {
    server.store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa4', namespace: 'default' }, data: { a: '1' } });
    const r = await apply('ssa4', 'alice', { a: '2' });
    expect(JSON.parse(r.text)).toMatchObject({
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a',
    });
  });

  it('needs a fieldManager, refuses managedFields in the configuration and force on another patch type', async () => {
    const noManager = await kubeRequest(server.kubeConfig(), 'PATCH', path('ssa5'), '{"apiVersion":"v1","kind":"ConfigMap"}', APPLY);
    expect(noManager.status).toBe(422);
    const withManaged = await kubeRequest(
      server.kubeConfig(),
      'PATCH',
      `${path('ssa5')}?fieldManager=x`,
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { managedFields: [] } }),
      APPLY,
    );
    expect([withManaged.status, (JSON.parse(withManaged.text) as { message: string }).message]).toEqual([
      400,
      'metadata.managedFields must be nil',
    ]);
    const force = await kubeRequest(server.kubeConfig(), 'PATCH', `${path('ssa1')}?force=true`, '{}', 'application/merge-patch+json');
    expect(force.status).toBe(422);
  });
});
