// Query numbers of the list routes: one parser, 400 invalid_field naming the parameter, never a 500 from SQLite
// nor a silent empty page.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../support/manager';
import type { Credentials } from '../../../main/core/http/router';

let t: TestManager;
let viewer: Credentials;
beforeAll(async () => {
  t = testManager();
  viewer = await t.login('vera', 'viewer');
});
afterAll(() => t?.close());

describe.each(['/api/v1/audit', '/api/v1/commands', '/api/v1/reports'])('%s', (route) => {
  test.each(['abc', '1.5', '0', '-3', '1e3', '1001', '99999999999999999999'])('limit=%s is 400 invalid_field', async (limit) => {
    const r = await t.call('GET', `${route}?limit=${encodeURIComponent(limit)}`, undefined, viewer);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'invalid_field', field: 'limit' } });
  });

  test('a whole limit in range, or none, lists', async () => {
    expect((await t.call('GET', `${route}?limit=5`, undefined, viewer)).status).toBe(200);
    expect((await t.call('GET', `${route}?limit=`, undefined, viewer)).status).toBe(200);
  });
});

test('before_seq=abc is 400, not an empty page', async () => {
  const r = await t.call('GET', '/api/v1/audit?before_seq=abc', undefined, viewer);
  expect(r.status).toBe(400);
  expect(r.body).toMatchObject({ error: { code: 'invalid_field', field: 'before_seq' } });
  const page = await t.call('GET', '/api/v1/audit?before_seq=1000&limit=2', undefined, viewer);
  expect((page.body as { items: unknown[] }).items.length).toBeGreaterThan(0);
});
