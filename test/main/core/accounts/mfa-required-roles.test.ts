// Which roles must hold a second factor follows from the profiles the clusters have, and it is asked on every
// authenticated request (and before every pushed event). It used to read every cluster row three times per
// request: at 2,000 clusters a batch of 100 creations took the console listener over 5 s, long enough for its
// idle keep-alive connections to be closed under the client's next batch (the end-to-end ECONNRESET).
import { afterEach, expect, test, vi } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';

let t: TestManager | undefined;
afterEach(() => t?.close());

test('an authenticated request asks the store for the profiles in use, never for every cluster', async () => {
  t = testManager();
  const alice = await t.login('alice', 'admin');
  for (let i = 0; i < 50; i++) t.manager.clusters.create({ name: `edge-${i}` }, 'test');
  const list = vi.spyOn(t.manager.tables.clusters, 'list');
  const r = await t.call('POST', '/api/v1/clusters', { name: 'edge-new' }, alice);
  expect(r.status).toBe(201);
  expect(list).not.toHaveBeenCalled();
});

test('the profiles in use decide who needs a second factor, as before', async () => {
  t = testManager();
  const admin = await t.manager.accounts.addUser('alice', 'admin', 'correct horse battery', 'test');
  const viewer = await t.manager.accounts.addUser('victor', 'viewer', 'correct horse battery', 'test');
  expect(t.manager.tables.clusters.profilesInUse()).toEqual([]);
  t.manager.clusters.create({ name: 'edge-1' }, 'test');
  t.manager.clusters.create({ name: 'edge-2' }, 'test');
  expect(t.manager.tables.clusters.profilesInUse()).toEqual(['development']);
  expect(t.manager.accounts.mfaPending(admin.id)).toBe(false);
  t.manager.clusters.create({ name: 'bank-1', profile: 'banking-secure' }, 'test');
  expect(t.manager.tables.clusters.profilesInUse().sort()).toEqual(['banking-secure', 'development']);
  expect(t.manager.accounts.mfaPending(admin.id)).toBe(true);
  expect(t.manager.accounts.mfaPending(viewer.id)).toBe(false);
});
