// Choosing a profile above the default is an admin's act, at creation as on PUT …/profile: an operator who could
// create a banking-secure cluster could lock every admin out (mfa_enrollment_required) and force four-eyes.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';
import type { Credentials } from '../../../../main/core/http/router';

let t: TestManager;
let operator: Credentials;
let admin: Credentials;
beforeAll(async () => {
  t = testManager();
  operator = await t.login('otto', 'operator');
  admin = await t.login('ada', 'admin');
});
afterAll(() => t?.close());

test.each(['standard', 'banking-secure', 'air-gapped', 'hybrid'])(
  'an operator cannot create a %s cluster: 403, nothing created, audited',
  async (profile) => {
    const r = await t.call('POST', '/api/v1/clusters', { name: `op-${profile}`, profile }, operator);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: { code: 'forbidden' } });
    expect(t.manager.clusters.list().map((c) => c.name)).not.toContain(`op-${profile}`);
    expect(t.manager.store.audit.list({ action: 'cluster.create_refused', actor: 'otto' })[0]!.details).toMatchObject({ profile });
    // And nobody is asked for a second factor because of it.
    expect(t.manager.accounts.mfaPending(t.manager.tables.accounts.userByName('ada')!.id)).toBe(false);
  },
);

test('an operator creates development clusters (the default, named or not); an admin chooses any profile', async () => {
  expect((await t.call('POST', '/api/v1/clusters', { name: 'op-default' }, operator)).status).toBe(201);
  expect((await t.call('POST', '/api/v1/clusters', { name: 'op-dev', profile: 'development' }, operator)).status).toBe(201);
  const r = await t.call('POST', '/api/v1/clusters', { name: 'admin-airgap', profile: 'air-gapped' }, admin);
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({ profile: 'air-gapped' });
});
