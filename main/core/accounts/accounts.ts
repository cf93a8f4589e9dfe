// Local accounts: users with roles, password login with lock-out, the TOTP second factor, expiring sessions with
// a CSRF token, API tokens for scripts, and one-time tickets (the first-run setup link and serve's login link).
import type { Tables } from '../domain-tables';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { ConflictError, CoreError } from '../errors';
import type { Store } from '../store/store';
import type { Role, UserRecord } from './accounts-tables';
import { isEnrolled, Mfa, type MfaEnrolment, type MfaOptions, type MfaStatus } from './mfa';
import { hashPassword, verifyPassword } from './passwords';
import { PasswordGate } from './password-gate';
import { ApiTokens, type ApiTokenView, type NewApiToken } from './api-tokens';
import { wellFormed } from '../well-formed';
import { AuthError, sha256, type CredentialRoute } from './credentials';
import { accountLocked, countGuess, giveBack, recordFailure } from './lockout';
import { Sessions, type MfaChallenge, type NewSession } from './sessions';
import { issueTicket } from './tickets';
import { checkNewUser, publicUser, type PublicUser } from './users';

export type { MfaEnrolment, MfaOptions, MfaStatus, ApiTokenView, NewApiToken };
export { ROLES, roleAtLeast, publicUser, type PublicUser } from './users';
export { AuthError, type CredentialRoute } from './credentials';
export { LOCKOUT_MS, MAX_FAILED_LOGINS } from './lockout';
export { isMfaChallenge, MFA_CHALLENGE_TTL_MS, SESSION_TTL_MS, type MfaChallenge, type NewSession } from './sessions';
export { TICKET_TTL_MS } from './tickets';

export const MFA_MAX_ATTEMPTS = 5;

/** A password is checked against this when the name is unknown, so the time taken does not tell which names exist. */
const UNKNOWN_USER_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export class Accounts {
  private readonly mfa: Mfa;
  private readonly sessions: Sessions;
  /** Every scrypt of this manager (logins, new accounts, setup) goes through here: bounded, with a bounded queue. */
  readonly passwordGate = new PasswordGate();
  readonly tokens: ApiTokens;

  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'accounts' | 'apiTokens'>,
    private readonly clock: Clock,
    opts: MfaOptions,
  ) {
    this.mfa = new Mfa(store, tables, clock, opts);
    this.sessions = new Sessions(store, tables, clock, this.mfa);
    this.tokens = new ApiTokens(store, tables, clock);
  }

  /** beforeCommit runs in the insert's transaction (a four-eyes approval spent with it). */
  async addUser(name: string, role: Role, password: string, actor: string, beforeCommit?: () => void): Promise<PublicUser> {
    checkNewUser(name, role, password);
    const password_hash = await this.passwordGate.run(() => hashPassword(password));
    return this.store.tx(() => {
      const user = this.insertUser(name, role, password_hash, actor);
      beforeCommit?.();
      return user;
    });
  }

  /** In the caller's transaction. */
  private insertUser(name: string, role: Role, password_hash: string, actor: string): PublicUser {
    if (this.tables.accounts.userByName(name)) throw new ConflictError('name_taken', `a user named ${name} already exists`);
    const row: UserRecord = {
      id: randomUUID(),
      name,
      role,
      password_hash,
      failed_logins: 0,
      locked_until: null,
      created_at: this.clock.now().toISOString(),
      totp_sealed_secret: null,
      totp_confirmed_at: null,
      totp_last_step: null,
    };
    this.tables.accounts.insertUser(row);
    this.store.audit.append({ actor, action: 'user.create', target: name, details: { role } });
    return publicUser(row);
  }

  hasUsers(): boolean {
    return this.tables.accounts.countUsers() > 0;
  }

  listUsers(): (PublicUser & { mfa_enrolled: boolean })[] {
    return this.tables.accounts.listUsers().map((u) => ({ ...publicUser(u), mfa_enrolled: isEnrolled(u) }));
  }

  user(id: string): PublicUser | undefined {
    const u = this.tables.accounts.userById(id);
    return u && publicUser(u);
  }

  /**
   * Password login: a session, or the challenge of the second factor when the account has one. Every attempt is
   * audited. The guess is counted before its password is checked, in one transaction with the lock check, so that
   * however many logins arrive at once, at most MAX_FAILED_LOGINS passwords are ever checked per lock window.
   */
  async login(name: string, password: string): Promise<NewSession | MfaChallenge> {
    const user = this.tables.accounts.userByName(name);
    if (!user) {
      await this.passwordGate.run(() => verifyPassword(password, UNKNOWN_USER_HASH));
      this.store.tx(() => this.store.audit.append({ actor: name, action: 'session.login_failed', details: { reason: 'unknown_user' } }));
      throw new AuthError('invalid_credentials', 'wrong user name or password');
    }
    const guess = countGuess(this.store, this.tables, this.clock, user.id);
    let ok: boolean;
    try {
      ok = await this.passwordGate.run(() => verifyPassword(password, user.password_hash));
    } catch (error) {
      // Not checked (the manager was too busy): the guess is given back.
      this.store.tx(() => giveBack(this.store, this.tables, user.id, guess));
      throw error;
    }
    if (!ok) {
      this.store.tx(() => {
        const u = this.tables.accounts.userById(user.id);
        this.store.audit.append({
          actor: name,
          action: 'session.login_failed',
          details: { reason: 'bad_password', failed: u?.failed_logins ?? null, locked_until: u?.locked_until ?? null },
        });
      });
      throw new AuthError('invalid_credentials', 'wrong user name or password');
    }
    return this.store.tx(() => {
      const fresh = this.tables.accounts.userById(user.id) ?? user;
      // The failure count is kept until the second factor too, so that a known password does not reset it.
      if (isEnrolled(fresh)) {
        giveBack(this.store, this.tables, user.id, guess);
        return this.sessions.challenge(fresh, 'password');
      }
      this.tables.accounts.setLoginFailures(user.id, 0, null);
      this.store.audit.append({ actor: name, action: 'session.login', details: { method: 'password' } });
      return this.sessions.open(fresh);
    });
  }

  /**
   * A credential route refused before it could be judged (a body that is not JSON the store can keep, or over the
   * size limit): still a failed login in the audit log, under the name it meant when that can be read.
   */
  refusedCredential(route: CredentialRoute, name: string | undefined, reason: 'invalid_json' | 'body_too_large'): void {
    this.store.tx(() =>
      this.store.audit.append({
        actor: name ? wellFormed(name) : 'anonymous',
        action: 'session.login_failed',
        details: { reason, method: route },
      }),
    );
  }

  /** The first refusal of a run of rate-limited credential requests from one source. */
  rateLimited(route: CredentialRoute, source: string): void {
    this.store.tx(() =>
      this.store.audit.append({ actor: 'anonymous', action: 'session.rate_limited', details: { method: route, source } }),
    );
  }

  /**
   * The second step of a login: a TOTP code (±1 step, each step once) or an unused recovery code. A challenge
   * lives MFA_CHALLENGE_TTL_MS and takes at most MFA_MAX_ATTEMPTS codes; wrong codes count towards the lock-out.
   */
  completeMfaLogin(token: string, code: string): NewSession {
    const hash = sha256(token);
    const outcome = this.store.tx((): { session: NewSession } | { error: AuthError } => {
      const now = this.clock.now();
      const ch = this.tables.accounts.mfaChallenges.get(hash);
      const user = ch && this.tables.accounts.userById(ch.user_id);
      if (!ch || !user || new Date(ch.expires_at) <= now || ch.attempts >= MFA_MAX_ATTEMPTS) {
        if (ch) this.tables.accounts.mfaChallenges.delete(hash);
        return { error: new AuthError('mfa_token_invalid', 'this sign-in has expired or taken too many codes; log in again') };
      }
      if (user.locked_until && new Date(user.locked_until) > now) {
        this.tables.accounts.mfaChallenges.delete(hash);
        this.store.audit.append({ actor: user.name, action: 'session.login_failed', details: { reason: 'locked' } });
        return { error: accountLocked(user.locked_until) };
      }
      const factor = this.mfa.spendCode(user, code);
      if (!factor) {
        this.tables.accounts.countMfaAttempt(hash);
        recordFailure(this.store, this.tables, this.clock, user.id, 'bad_mfa_code');
        return {
          error: new AuthError('mfa_code_invalid', 'wrong or already used code', {
            attempts_left: Math.max(0, MFA_MAX_ATTEMPTS - ch.attempts - 1),
          }),
        };
      }
      this.tables.accounts.mfaChallenges.delete(hash);
      this.tables.accounts.setLoginFailures(user.id, 0, null);
      const details: Record<string, unknown> = { method: 'mfa', factor };
      if (factor === 'recovery_code') details.recovery_codes_left = this.tables.accounts.unusedRecoveryCodes(user.id);
      this.store.audit.append({ actor: user.name, action: 'session.login', details });
      return { session: this.sessions.open(this.tables.accounts.userById(user.id)!) };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.session;
  }

  /** The session behind a cookie, if it exists and has not expired. */
  session(token: string): { user: PublicUser; csrf_token: string; expires_at: string; mfa: MfaStatus } | undefined {
    return this.sessions.session(token);
  }

  /** Whether the user has a second factor and whether the clusters' profiles require one for their role. */
  mfaStatus(userId: string): MfaStatus {
    const user = this.tables.accounts.userById(userId);
    if (!user) throw new CoreError('not_found', 'this account no longer exists');
    return this.mfa.status(user);
  }

  /** True while the account may only enrol its second factor (its role requires one it does not have). */
  mfaPending(userId: string): boolean {
    const user = this.tables.accounts.userById(userId);
    return user !== undefined && this.mfa.pending(user);
  }

  startMfaEnrolment(userId: string, actor: string): Promise<MfaEnrolment> {
    return this.mfa.startEnrolment(userId, actor);
  }

  /** Confirms the enrolment with a current code; the recovery codes returned are never shown again. */
  confirmMfaEnrolment(userId: string, code: string, actor: string): string[] {
    return this.mfa.confirmEnrolment(userId, code, actor);
  }

  resetMfa(userName: string, actor: string, beforeCommit?: () => void): void {
    this.mfa.reset(userName, actor, beforeCommit);
  }

  /** Every account with its role and whether it has a confirmed second factor, for the profile rules. */
  mfaEnrolment(): { name: string; role: Role; enrolled: boolean }[] {
    return this.mfa.enrolment();
  }

  logout(token: string, actor: string): void {
    this.sessions.logout(token, actor);
  }

  /** An API token with the default lifetime: the secret only (see `tokens` for lifetimes, lists and revocation). */
  createApiToken(userName: string, actor: string): string {
    return this.tokens.create(userName, {}, actor).token;
  }

  /** The user of a live API token; undefined for an unknown one; throws token_expired / token_revoked for a dead one. */
  apiTokenUser(token: string): PublicUser | undefined {
    const user = this.tokens.user(token);
    return user && publicUser(user);
  }

  /** A fresh one-time setup ticket (any older one is void); only while no account exists. */
  issueSetupTicket(): string {
    return issueTicket(this.store, this.tables, this.clock, 'setup', null);
  }

  /**
   * Creates the first admin with the setup link. The request is judged before the link is spent (a password too
   * short leaves it usable), and the link is spent in the same transaction that creates the account.
   */
  async completeSetup(ticket: string, name: string, password: string): Promise<NewSession> {
    if (this.hasUsers()) throw new ConflictError('setup_done', 'the first account already exists; log in instead');
    const hash = sha256(ticket);
    const invalid = (): AuthError =>
      new AuthError('setup_token_invalid', 'this setup link is not valid (used or expired); restart the manager for a new one');
    const live = (row: { expires_at: string } | undefined): boolean => !!row && new Date(row.expires_at) > this.clock.now();
    if (!live(this.tables.accounts.ticket(hash, 'setup'))) throw invalid();
    checkNewUser(name, 'admin', password);
    const password_hash = await this.passwordGate.run(() => hashPassword(password));
    return this.store.tx(() => {
      if (this.tables.accounts.countUsers() > 0) throw new ConflictError('setup_done', 'the first account already exists; log in instead');
      if (!live(this.tables.accounts.takeTicket(hash, 'setup'))) throw invalid();
      const user = this.insertUser(name, 'admin', password_hash, 'setup');
      this.store.audit.append({ actor: name, action: 'session.login', details: { method: 'setup' } });
      return this.sessions.open(this.tables.accounts.userById(user.id)!);
    });
  }

  /** A one-time login ticket for a user, printed by serve as the login link. */
  issueLoginTicket(userName: string): string {
    const user = this.tables.accounts.userByName(userName);
    if (!user) throw new CoreError('not_found', `no user named ${userName}`);
    return issueTicket(this.store, this.tables, this.clock, 'login', user.id);
  }

  /** The link proves access to the manager's terminal, not the second factor: an enrolled user gets the challenge. */
  redeemLoginTicket(ticket: string): NewSession | MfaChallenge {
    return this.store.tx(() => {
      const row = this.tables.accounts.takeTicket(sha256(ticket), 'login');
      const user = row?.user_id ? this.tables.accounts.userById(row.user_id) : undefined;
      if (!row || !user || new Date(row.expires_at) <= this.clock.now())
        throw new AuthError('ticket_invalid', 'this login link is not valid (used or expired); log in with your password');
      if (isEnrolled(user)) return this.sessions.challenge(user, 'ticket');
      this.store.audit.append({ actor: user.name, action: 'session.login', details: { method: 'ticket' } });
      return this.sessions.open(user);
    });
  }

  firstAdminName(): string | undefined {
    return this.tables.accounts.firstAdmin()?.name;
  }
}
