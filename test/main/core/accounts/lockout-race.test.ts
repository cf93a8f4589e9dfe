// Logins sent all at once cannot get past the lock-out: a guess is counted, in one transaction with the lock
// check, before its password is checked, so at most MAX_FAILED_LOGINS passwords are checked per lock window.
import { afterEach, describe, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';
import { startListeners, type RunningListeners } from '../../../support/listeners';
import { httpsCall } from '../../../support/https-call';
import { MAX_FAILED_LOGINS } from '../../../../main/core/accounts/accounts';

const PASSWORD = 'correct horse battery';

describe('parallel wrong passwords', () => {
  let t: TestManager | undefined;
  let listeners: RunningListeners | undefined;
  afterEach(async () => {
    await listeners?.close();
    listeners = undefined;
    t?.close();
  });

  const checked = (): number =>
    t!.manager.store.audit.list({ actor: 'alice', action: 'session.login_failed' }).filter((r) => r.details.reason === 'bad_password')
      .length;

  test('49 wrong then the right one, all at once: five are checked, the rest (the right one too) find the account locked', async () => {
    t = testManager();
    await t.manager.accounts.addUser('alice', 'operator', PASSWORD, 'test');
    const attempts = [...Array.from({ length: 49 }, (_, i) => `wrong password ${i}`), PASSWORD].map((p) =>
      t!.manager.accounts.login('alice', p).then(
        () => 'session',
        (e: { code: string }) => e.code,
      ),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o === 'invalid_credentials')).toHaveLength(MAX_FAILED_LOGINS);
    expect(outcomes.filter((o) => o === 'account_locked')).toHaveLength(50 - MAX_FAILED_LOGINS);
    expect(outcomes[49]).toBe('account_locked');
    expect(checked()).toBe(MAX_FAILED_LOGINS);
    // The lock holds afterwards: it was not set and cleared again.
    await expect(t.manager.accounts.login('alice', PASSWORD)).rejects.toMatchObject({ code: 'account_locked' });
  });

  test('over HTTPS too: of 50 logins sent at once, at most five passwords are ever checked', async () => {
    t = testManager();
    listeners = await startListeners(t);
    await t.manager.accounts.addUser('alice', 'operator', PASSWORD, 'test');
    const url = listeners.console.url;
    const body = (password: string) => JSON.stringify({ name: 'alice', password });
    const replies = await Promise.all(
      [...Array.from({ length: 49 }, (_, i) => `wrong password ${i}`), PASSWORD].map((p) =>
        httpsCall(url, '/api/v1/session', { ca: t!.manager.ca.certPem, body: body(p) }),
      ),
    );
    const statuses = replies.map((r) => r.status);
    // The right password may be among the five checked (then it opens a session); never after a lock.
    expect(statuses.filter((s) => s === 401 || s === 200).length).toBeLessThanOrEqual(MAX_FAILED_LOGINS);
    // The others find the account locked, or (past the per-source burst) are not even read.
    expect(statuses.filter((s) => s !== 401 && s !== 200 && s !== 423 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 423).length).toBeGreaterThan(0);
    expect(checked()).toBeLessThanOrEqual(MAX_FAILED_LOGINS);
  });

  test('a right password among a few wrong ones in flight still opens a session (under the limit nothing locks)', async () => {
    t = testManager();
    await t.manager.accounts.addUser('alice', 'operator', PASSWORD, 'test');
    const outcomes = await Promise.all(
      ['wrong password a', 'wrong password b', PASSWORD].map((p) =>
        t!.manager.accounts.login('alice', p).then(
          () => 'session',
          (e: { code: string }) => e.code,
        ),
      ),
    );
    expect(outcomes).toEqual(['invalid_credentials', 'invalid_credentials', 'session']);
    expect(t.manager.tables.accounts.userByName('alice')).toMatchObject({ locked_until: null });
  });
});
