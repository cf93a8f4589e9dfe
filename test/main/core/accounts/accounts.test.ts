import { afterEach, describe, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';
import { ManualClock } from '../../../support/clock';
import {
  isMfaChallenge,
  LOCKOUT_MS,
  MAX_FAILED_LOGINS,
  SESSION_TTL_MS,
  type MfaChallenge,
  type NewSession,
} from '../../../../main/core/accounts/accounts';

function session(r: NewSession | MfaChallenge): NewSession {
  if (isMfaChallenge(r)) throw new Error('expected a session, got an MFA challenge');
  return r;
}

describe('accounts', () => {
  let t: TestManager | undefined;
  afterEach(() => t?.close());

  test('passwords are stored as scrypt hashes, never in clear', async () => {
    t = testManager();
    await t.manager.accounts.addUser('alice', 'admin', 'correct horse battery', 'test');
    const row = t.manager.tables.accounts.userByName('alice')!;
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row.password_hash).not.toContain('correct horse');
  });

  test('repeated failures lock the account, and the lock lifts after its time', async () => {
    const clock = new ManualClock();
    t = testManager({ clock });
    await t.manager.accounts.addUser('alice', 'operator', 'correct horse battery', 'test');
    for (let i = 0; i < MAX_FAILED_LOGINS; i++)
      await expect(t.manager.accounts.login('alice', 'wrong password!')).rejects.toMatchObject({ code: 'invalid_credentials' });
    await expect(t.manager.accounts.login('alice', 'correct horse battery')).rejects.toMatchObject({ code: 'account_locked' });
    clock.advance(LOCKOUT_MS + 1000);
    await expect(t.manager.accounts.login('alice', 'correct horse battery')).resolves.toMatchObject({ user: { name: 'alice' } });
    const actions = t.manager.store.audit.list({ actor: 'alice' }).map((r) => r.action);
    expect(actions.filter((a) => a === 'session.login_failed')).toHaveLength(MAX_FAILED_LOGINS + 1);
    expect(actions[0]).toBe('session.login');
  });

  test('a session expires', async () => {
    const clock = new ManualClock();
    t = testManager({ clock });
    await t.manager.accounts.addUser('alice', 'viewer', 'correct horse battery', 'test');
    const s = session(await t.manager.accounts.login('alice', 'correct horse battery'));
    expect(t.manager.accounts.session(s.token)?.user.name).toBe('alice');
    clock.advance(SESSION_TTL_MS + 1);
    expect(t.manager.accounts.session(s.token)).toBeUndefined();
  });

  test('the setup ticket creates the first admin once, and only while no account exists', async () => {
    t = testManager();
    const ticket = t.manager.accounts.issueSetupTicket();
    const s = await t.manager.accounts.completeSetup(ticket, 'root', 'correct horse battery');
    expect(s.user.role).toBe('admin');
    await expect(t.manager.accounts.completeSetup(ticket, 'again', 'correct horse battery')).rejects.toMatchObject({ code: 'setup_done' });
  });

  test('a login ticket is good for one use', async () => {
    t = testManager();
    await t.manager.accounts.addUser('alice', 'admin', 'correct horse battery', 'test');
    const ticket = t.manager.accounts.issueLoginTicket('alice');
    expect(session(t.manager.accounts.redeemLoginTicket(ticket)).user.name).toBe('alice');
    expect(() => t!.manager.accounts.redeemLoginTicket(ticket)).toThrow(expect.objectContaining({ code: 'ticket_invalid' }));
  });

  test('weak passwords and bad names are refused', async () => {
    t = testManager();
    await expect(t.manager.accounts.addUser('alice', 'admin', 'short', 'test')).rejects.toMatchObject({
      code: 'invalid_field',
      field: 'password',
    });
    await expect(t.manager.accounts.addUser('Alice!', 'admin', 'correct horse battery', 'test')).rejects.toMatchObject({
      code: 'invalid_field',
      field: 'name',
    });
  });
});
