// A support archive's cluster id comes from a URL: it is looked up before anything is read or written on disk.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';

let t: TestManager | undefined;
afterEach(() => t?.close());

const HOSTILE = ['no-such-cluster', '\0', '../../escape', 'a/b', '..'];

test('an unknown or hostile cluster id is not_found at every support call and no folder is made for it', async () => {
  t = testManager();
  const admin = await t.login('alice', 'admin');
  for (const id of HOSTILE) {
    const seg = encodeURIComponent(id);
    for (const [method, path] of [
      ['POST', `/api/v1/clusters/${seg}/support`],
      ['GET', `/api/v1/clusters/${seg}/support`],
      ['GET', `/api/v1/clusters/${seg}/support/preview`],
      ['GET', `/api/v1/clusters/${seg}/support/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`],
    ] as const) {
      const r = await t.call(method, path, method === 'POST' ? {} : undefined, admin);
      expect([r.status, (r.body as { error: { code: string } }).error.code], `${method} ${path}`).toEqual([404, 'not_found']);
    }
  }
  expect(existsSync(join(t.dataDir, 'support'))).toBe(false);
  expect(readdirSync(t.dataDir)).not.toContain('escape');
});

test('a hosts cluster with no archive yet lists none without making its folder', async () => {
  t = testManager();
  const admin = await t.login('alice', 'admin');
  const created = await t.call('POST', '/api/v1/clusters', { name: 'edge-h', kind: 'hosts' }, admin);
  const id = (created.body as { id: string }).id;
  const r = await t.call('GET', `/api/v1/clusters/${id}/support`, undefined, admin);
  expect([r.status, r.body]).toEqual([200, { items: [] }]);
  expect(existsSync(join(t.dataDir, 'support', id))).toBe(false);
});
