// The first-run setup link is spent only by the request that creates the first admin: a refused request (a
// password too short, a bad name) leaves it usable, and it is spent in the same transaction as the account.
import { afterEach, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';

let t: TestManager | undefined;
afterEach(() => t?.close());

test('a 400 on POST /api/v1/setup leaves the link usable', async () => {
  t = testManager();
  const token = t.manager.accounts.issueSetupTicket();
  const short = await t.call('POST', '/api/v1/setup', { token, name: 'root', password: 'short' });
  expect(short.status).toBe(400);
  expect(short.body).toMatchObject({ error: { code: 'invalid_field', field: 'password' } });
  const badName = await t.call('POST', '/api/v1/setup', { token, name: 'Root!', password: 'correct horse battery' });
  expect(badName.status).toBe(400);
  const ok = await t.call('POST', '/api/v1/setup', { token, name: 'root', password: 'correct horse battery' });
  expect(ok.status).toBe(200);
  expect(ok.body).toMatchObject({ user: { name: 'root', role: 'admin' } });
  const again = await t.call('POST', '/api/v1/setup', { token, name: 'other', password: 'correct horse battery' });
  expect(again.status).toBe(409);
});

test('two setups racing with one link create one admin', async () => {
  t = testManager();
  const token = t.manager.accounts.issueSetupTicket();
  const [a, b] = await Promise.all(
    ['root', 'rival'].map((name) => t!.call('POST', '/api/v1/setup', { token, name, password: 'correct horse battery' })),
  );
  const statuses = [a!.status, b!.status].sort((x, y) => x - y);
  expect(statuses[0]).toBe(200);
  expect([401, 409]).toContain(statuses[1]);
  expect(t.manager.accounts.listUsers()).toHaveLength(1);
});

test('a wrong link is refused before any password is hashed', async () => {
  t = testManager();
  t.manager.accounts.issueSetupTicket();
  const r = await t.call('POST', '/api/v1/setup', { token: 'not-the-link', name: 'root', password: 'correct horse battery' });
  expect(r.body).toMatchObject({ error: { code: 'setup_token_invalid' } });
  expect(t.manager.accounts.passwordGate.stats().peakActive).toBe(0);
});
