// The second factor of local accounts, on a manual clock: enrolment, login codes spent once, recovery codes,
// challenge limits, lock-out and the admin reset.
import { afterEach, describe, expect, it } from 'vitest';
import { URI, type TOTP } from 'otpauth';
import { testManager, type TestManager } from '../../../support/manager';
import { ManualClock } from '../../../support/clock';
import {
  isMfaChallenge,
  MAX_FAILED_LOGINS,
  MFA_CHALLENGE_TTL_MS,
  MFA_MAX_ATTEMPTS,
  type MfaChallenge,
  type NewSession,
} from '../../../../main/core/accounts/accounts';

const PASSWORD = 'correct horse battery';
const STEP_MS = 30_000;

function challenge(r: NewSession | MfaChallenge): MfaChallenge {
  if (!isMfaChallenge(r)) throw new Error('expected an MFA challenge, got a session');
  return r;
}

describe('mfa', () => {
  let t: TestManager | undefined;
  afterEach(() => t?.close());

  /** A user enrolled at the clock's time; the authenticator is rebuilt from the otpauth URI, as an app would. */
  async function enrolled(name = 'alice'): Promise<{ clock: ManualClock; app: TOTP; codes: string[]; id: string }> {
    const clock = new ManualClock();
    t = testManager({ clock });
    const user = await t.manager.accounts.addUser(name, 'admin', PASSWORD, 'test');
    const e = await t.manager.accounts.startMfaEnrolment(user.id, name);
    const app = URI.parse(e.otpauth_uri) as TOTP;
    const codes = t.manager.accounts.confirmMfaEnrolment(user.id, app.generate({ timestamp: clock.now().getTime() }), name);
    clock.advance(STEP_MS);
    return { clock, app, codes, id: user.id };
  }
  const codeAt = (app: TOTP, clock: ManualClock, offsetSteps = 0): string =>
    app.generate({ timestamp: clock.now().getTime() + offsetSteps * STEP_MS });
  const login = async (name = 'alice'): Promise<MfaChallenge> => challenge(await t!.manager.accounts.login(name, PASSWORD));

  it('seals the secret, confirms with a current code and keeps only hashes of the 10 recovery codes', async () => {
    const clock = new ManualClock();
    t = testManager({ clock });
    const user = await t.manager.accounts.addUser('alice', 'admin', PASSWORD, 'test');
    const e = await t.manager.accounts.startMfaEnrolment(user.id, 'alice');
    expect(e.account).toBe('alice');
    expect(e.secret).toMatch(/^[A-Z2-7]{32}$/);
    const row = t.manager.tables.accounts.userByName('alice')!;
    const raw = t.manager.protector.open(row.totp_sealed_secret!);
    expect(raw.length).toBe(20);
    expect(row.totp_sealed_secret!.includes(raw)).toBe(false);
    expect(row.totp_confirmed_at).toBeNull();
    expect(t.manager.accounts.mfaStatus(user.id).enrolled).toBe(false);

    const app = URI.parse(e.otpauth_uri) as TOTP;
    const codes = t.manager.accounts.confirmMfaEnrolment(user.id, app.generate({ timestamp: clock.now().getTime() }), 'alice');
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = t.manager.store.db.prepare('SELECT code_hash, used_at FROM recovery_codes WHERE user_id = ?').all(user.id) as {
      code_hash: string;
    }[];
    expect(stored).toHaveLength(10);
    for (const c of codes) expect(JSON.stringify(stored)).not.toContain(c.replace(/-/g, ''));
    expect(t.manager.accounts.mfaStatus(user.id).enrolled).toBe(true);
    const actions = t.manager.store.audit.list({ actor: 'alice' }).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['mfa.enrol', 'mfa.confirm']));
  });

  it('refuses a wrong confirmation code and leaves the enrolment unconfirmed', async () => {
    t = testManager({ clock: new ManualClock() });
    const user = await t.manager.accounts.addUser('alice', 'admin', PASSWORD, 'test');
    await t.manager.accounts.startMfaEnrolment(user.id, 'alice');
    expect(() => t!.manager.accounts.confirmMfaEnrolment(user.id, '000000', 'alice')).toThrow(
      expect.objectContaining({ code: 'mfa_code_invalid' }),
    );
    expect(t.manager.accounts.mfaStatus(user.id).enrolled).toBe(false);
    expect(t.manager.tables.accounts.unusedRecoveryCodes(user.id)).toBe(0);
  });

  it('replaces an unconfirmed enrolment but not a confirmed one', async () => {
    const clock = new ManualClock();
    t = testManager({ clock });
    const user = await t.manager.accounts.addUser('alice', 'admin', PASSWORD, 'test');
    const first = await t.manager.accounts.startMfaEnrolment(user.id, 'alice');
    const second = await t.manager.accounts.startMfaEnrolment(user.id, 'alice');
    expect(second.secret).not.toBe(first.secret);
    const stale = (URI.parse(first.otpauth_uri) as TOTP).generate({ timestamp: clock.now().getTime() });
    const fresh = (URI.parse(second.otpauth_uri) as TOTP).generate({ timestamp: clock.now().getTime() });
    if (stale !== fresh)
      expect(() => t!.manager.accounts.confirmMfaEnrolment(user.id, stale, 'alice')).toThrow(
        expect.objectContaining({ code: 'mfa_code_invalid' }),
      );
    t.manager.accounts.confirmMfaEnrolment(user.id, fresh, 'alice');
    await expect(t.manager.accounts.startMfaEnrolment(user.id, 'alice')).rejects.toMatchObject({ code: 'mfa_already_enrolled' });
  });

  it('answers the password of an enrolled user with a challenge, and the current code opens the session', async () => {
    const { clock, app } = await enrolled();
    const ch = await login();
    expect(new Date(ch.expires_at).getTime()).toBe(clock.now().getTime() + MFA_CHALLENGE_TTL_MS);
    expect(t!.manager.store.db.prepare('SELECT count(*) AS n FROM sessions').get()).toEqual({ n: 0 });
    const s = t!.manager.accounts.completeMfaLogin(ch.mfa_token, codeAt(app, clock));
    expect(s.user.name).toBe('alice');
    expect(t!.manager.accounts.session(s.token)?.mfa).toEqual({ enrolled: true, required: false });
    // The challenge is spent with the login.
    expect(() => t!.manager.accounts.completeMfaLogin(ch.mfa_token, codeAt(app, clock, 1))).toThrow(
      expect.objectContaining({ code: 'mfa_token_invalid' }),
    );
  });

  it('never accepts the same step twice, nor the step of the confirmation', async () => {
    const { clock, app } = await enrolled();
    const first = await login();
    // One step after the confirmation: the confirmation's code is within the drift but already spent.
    expect(() => t!.manager.accounts.completeMfaLogin(first.mfa_token, codeAt(app, clock, -1))).toThrow(
      expect.objectContaining({ code: 'mfa_code_invalid' }),
    );
    const code = codeAt(app, clock);
    t!.manager.accounts.completeMfaLogin(first.mfa_token, code);
    const second = await login();
    expect(() => t!.manager.accounts.completeMfaLogin(second.mfa_token, code)).toThrow(
      expect.objectContaining({ code: 'mfa_code_invalid' }),
    );
    clock.advance(STEP_MS);
    expect(t!.manager.accounts.completeMfaLogin(second.mfa_token, codeAt(app, clock)).user.name).toBe('alice');
  });

  it('accepts a code one step old and refuses one two steps old', async () => {
    const { clock, app } = await enrolled();
    clock.advance(5 * STEP_MS);
    const ch = await login();
    expect(() => t!.manager.accounts.completeMfaLogin(ch.mfa_token, codeAt(app, clock, -2))).toThrow(
      expect.objectContaining({ code: 'mfa_code_invalid' }),
    );
    expect(t!.manager.accounts.completeMfaLogin(ch.mfa_token, codeAt(app, clock, -1)).user.name).toBe('alice');
  });

  it('accepts a recovery code once, however it is typed', async () => {
    const { codes, id } = await enrolled();
    const code = codes[3]!;
    const s = t!.manager.accounts.completeMfaLogin((await login()).mfa_token, ` ${code.toUpperCase()} `);
    expect(s.user.name).toBe('alice');
    expect(t!.manager.tables.accounts.unusedRecoveryCodes(id)).toBe(9);
    const again = await login();
    expect(() => t!.manager.accounts.completeMfaLogin(again.mfa_token, code)).toThrow(
      expect.objectContaining({ code: 'mfa_code_invalid' }),
    );
    expect(t!.manager.accounts.completeMfaLogin(again.mfa_token, codes[4]!.replace(/-/g, '')).user.name).toBe('alice');
  });

  it('lets a challenge live 5 minutes', async () => {
    const { clock, app } = await enrolled();
    const ch = await login();
    clock.advance(MFA_CHALLENGE_TTL_MS);
    expect(() => t!.manager.accounts.completeMfaLogin(ch.mfa_token, codeAt(app, clock))).toThrow(
      expect.objectContaining({ code: 'mfa_token_invalid' }),
    );
  });

  it('lets a challenge take at most 5 codes', async () => {
    const { clock, app } = await enrolled();
    const ch = await login();
    for (let i = 0; i < MFA_MAX_ATTEMPTS; i++) {
      expect(() => t!.manager.accounts.completeMfaLogin(ch.mfa_token, '000000')).toThrow(
        expect.objectContaining({ code: 'mfa_code_invalid' }),
      );
    }
    expect(() => t!.manager.accounts.completeMfaLogin(ch.mfa_token, codeAt(app, clock))).toThrow(
      expect.objectContaining({ code: 'mfa_token_invalid' }),
    );
  });

  it('counts wrong codes towards the lock-out, audited, and a correct password does not clear them', async () => {
    await enrolled();
    for (let i = 0; i < MAX_FAILED_LOGINS - 1; i++) {
      const ch = await login();
      expect(() => t!.manager.accounts.completeMfaLogin(ch.mfa_token, '000000')).toThrow(
        expect.objectContaining({ code: 'mfa_code_invalid' }),
      );
    }
    const last = await login();
    expect(() => t!.manager.accounts.completeMfaLogin(last.mfa_token, '000000')).toThrow(
      expect.objectContaining({ code: 'mfa_code_invalid' }),
    );
    await expect(t!.manager.accounts.login('alice', PASSWORD)).rejects.toMatchObject({ code: 'account_locked' });
    const failures = t!.manager.store.audit.list({ actor: 'alice' }).filter((r) => r.action === 'session.login_failed');
    expect(failures.filter((r) => (r.details as { reason?: string }).reason === 'bad_mfa_code')).toHaveLength(MAX_FAILED_LOGINS);
  });

  it('ends the login link of an enrolled user in the challenge', async () => {
    const { clock, app } = await enrolled();
    const ch = challenge(t!.manager.accounts.redeemLoginTicket(t!.manager.accounts.issueLoginTicket('alice')));
    expect(t!.manager.accounts.completeMfaLogin(ch.mfa_token, codeAt(app, clock)).user.name).toBe('alice');
  });

  it('asks no second factor after an admin reset, which is audited', async () => {
    const { id } = await enrolled();
    t!.manager.accounts.resetMfa('alice', 'root');
    expect(t!.manager.accounts.mfaStatus(id).enrolled).toBe(false);
    expect(t!.manager.tables.accounts.unusedRecoveryCodes(id)).toBe(0);
    const r = await t!.manager.accounts.login('alice', PASSWORD);
    expect(isMfaChallenge(r)).toBe(false);
    expect(t!.manager.store.audit.list({ actor: 'root' }).map((a) => a.action)).toContain('mfa.reset');
    expect(() => t!.manager.accounts.resetMfa('nobody', 'root')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('reports every account with its role and enrolment, and requires MFA for the roles of the profiles', async () => {
    await enrolled('alice');
    await t!.manager.accounts.addUser('bob', 'admin', PASSWORD, 'test');
    await t!.manager.accounts.addUser('carol', 'viewer', PASSWORD, 'test');
    expect(t!.manager.accounts.mfaEnrolment()).toEqual([
      { name: 'alice', role: 'admin', enrolled: true },
      { name: 'bob', role: 'admin', enrolled: false },
      { name: 'carol', role: 'viewer', enrolled: false },
    ]);
    const bob = t!.manager.tables.accounts.userByName('bob')!.id;
    expect(t!.manager.accounts.mfaPending(bob)).toBe(false);
    t!.manager.clusters.create({ name: 'prod', profile: 'banking-secure' }, 'test');
    expect(t!.manager.accounts.mfaStatus(bob)).toEqual({ enrolled: false, required: true });
    expect(t!.manager.accounts.mfaPending(bob)).toBe(true);
    expect(t!.manager.accounts.mfaPending(t!.manager.tables.accounts.userByName('carol')!.id)).toBe(false);
  });
});
