// Local accounts: users with roles, password login with lock-out, the TOTP second factor, expiring sessions with
// a CSRF token, API tokens for scripts, and one-time tickets (the first-run setup link and serve's login link).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { ConflictError, CoreError, ValidationError } from '../errors';
import type { Store } from '../store/store';
import type { Role, UserRecord } from '../store/accounts-tables';
import { isEnrolled, Mfa, type MfaEnrolment, type MfaOptions, type MfaStatus } from './mfa';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords';
import { PasswordGate } from './password-gate';
import { ApiTokens, type ApiTokenView, type NewApiToken } from './api-tokens';
import { wellFormed } from '../well-formed';

export type { MfaEnrolment, MfaOptions, MfaStatus, ApiTokenView, NewApiToken };

export const ROLES: readonly Role[] = ['viewer', 'operator', 'admin'];
const ROLE_RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };
export const roleAtLeast = (role: Role, needed: Role): boolean => ROLE_RANK[role] >= ROLE_RANK[needed];

export const MAX_FAILED_LOGINS = 5;
export const LOCKOUT_MS = 15 * 60_000;
export const SESSION_TTL_MS = 12 * 3600_000;
export const TICKET_TTL_MS = 15 * 60_000;
export const MFA_CHALLENGE_TTL_MS = 5 * 60_000;
export const MFA_MAX_ATTEMPTS = 5;
const USER_NAME = /^[a-z][a-z0-9._-]{0,63}$/;

export interface PublicUser {
  id: string;
  name: string;
  role: Role;
  created_at: string;
}

export interface NewSession {
  token: string;
  csrf_token: string;
  expires_at: string;
  user: PublicUser;
  mfa: MfaStatus;
}

/** The answer to a first factor when the account has a second one: no session yet, send a code with this token. */
export interface MfaChallenge {
  mfa_required: true;
  mfa_token: string;
  expires_at: string;
}

export const isMfaChallenge = (r: NewSession | MfaChallenge): r is MfaChallenge => 'mfa_required' in r;

export class AuthError extends CoreError {}

/** The ways to present a credential: password, second-factor code, login link, setup link. */
export type CredentialRoute = 'password' | 'mfa' | 'ticket' | 'setup';

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const secret = (): string => randomBytes(32).toString('base64url');
export const publicUser = (u: UserRecord): PublicUser => ({ id: u.id, name: u.name, role: u.role, created_at: u.created_at });

/** A password is checked against this when the name is unknown, so the time taken does not tell which names exist. */
const UNKNOWN_USER_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** A guess counted before its password is checked; `lock` is the lock this very guess set, if it was the last allowed. */
interface Guess {
  lock: string | null;
}

function checkNewUser(name: string, role: Role, password: string): void {
  if (!USER_NAME.test(name))
    throw new ValidationError('name', 'a user name is 1 to 64 lowercase letters, digits, ".", "_" or "-", starting with a letter');
  if (!ROLES.includes(role)) throw new ValidationError('role', `role must be one of ${ROLES.join(', ')}`);
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new ValidationError('password', `a password has at least ${MIN_PASSWORD_LENGTH} characters`);
}

export class Accounts {
  private readonly mfa: Mfa;
  /** Every scrypt of this manager (logins, new accounts, setup) goes through here: bounded, with a bounded queue. */
  readonly passwordGate = new PasswordGate();
  readonly tokens: ApiTokens;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    opts: MfaOptions,
  ) {
    this.mfa = new Mfa(store, clock, opts);
    this.tokens = new ApiTokens(store, clock);
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
    if (this.store.accounts.userByName(name)) throw new ConflictError('name_taken', `a user named ${name} already exists`);
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
    this.store.accounts.insertUser(row);
    this.store.audit.append({ actor, action: 'user.create', target: name, details: { role } });
    return publicUser(row);
  }

  hasUsers(): boolean {
    return this.store.accounts.countUsers() > 0;
  }

  listUsers(): (PublicUser & { mfa_enrolled: boolean })[] {
    return this.store.accounts.listUsers().map((u) => ({ ...publicUser(u), mfa_enrolled: isEnrolled(u) }));
  }

  user(id: string): PublicUser | undefined {
    const u = this.store.accounts.userById(id);
    return u && publicUser(u);
  }

  /**
   * Password login: a session, or the challenge of the second factor when the account has one. Every attempt is
   * audited. The guess is counted before its password is checked, in one transaction with the lock check, so that
   * however many logins arrive at once, at most MAX_FAILED_LOGINS passwords are ever checked per lock window.
   */
  async login(name: string, password: string): Promise<NewSession | MfaChallenge> {
    const user = this.store.accounts.userByName(name);
    if (!user) {
      await this.passwordGate.run(() => verifyPassword(password, UNKNOWN_USER_HASH));
      this.store.tx(() => this.store.audit.append({ actor: name, action: 'session.login_failed', details: { reason: 'unknown_user' } }));
      throw new AuthError('invalid_credentials', 'wrong user name or password');
    }
    const guess = this.countGuess(user.id);
    let ok: boolean;
    try {
      ok = await this.passwordGate.run(() => verifyPassword(password, user.password_hash));
    } catch (error) {
      // Not checked (the manager was too busy): the guess is given back.
      this.store.tx(() => this.giveBack(user.id, guess));
      throw error;
    }
    if (!ok) {
      this.store.tx(() => {
        const u = this.store.accounts.userById(user.id);
        this.store.audit.append({
          actor: name,
          action: 'session.login_failed',
          details: { reason: 'bad_password', failed: u?.failed_logins ?? null, locked_until: u?.locked_until ?? null },
        });
      });
      throw new AuthError('invalid_credentials', 'wrong user name or password');
    }
    return this.store.tx(() => {
      const fresh = this.store.accounts.userById(user.id) ?? user;
      // The failure count is kept until the second factor too, so that a known password does not reset it.
      if (isEnrolled(fresh)) {
        this.giveBack(user.id, guess);
        return this.challenge(fresh, 'password');
      }
      this.store.accounts.setLoginFailures(user.id, 0, null);
      this.store.audit.append({ actor: name, action: 'session.login', details: { method: 'password' } });
      return this.openSession(fresh);
    });
  }

  /**
   * Refuses a locked account (audited), else counts one more guess, locking the account when it is the last one
   * allowed. A lock that has run out starts a new window.
   */
  private countGuess(userId: string): Guess {
    const outcome = this.store.tx((): Guess | { error: AuthError } => {
      const u = this.store.accounts.userById(userId)!;
      const now = this.clock.now();
      if (u.locked_until && new Date(u.locked_until) > now) {
        this.store.audit.append({ actor: u.name, action: 'session.login_failed', details: { reason: 'locked' } });
        return {
          error: new AuthError('account_locked', `too many failed logins; try again after ${u.locked_until} or ask an admin`, {
            locked_until: u.locked_until,
          }),
        };
      }
      const failed = (u.locked_until ? 0 : u.failed_logins) + 1;
      const lock = failed >= MAX_FAILED_LOGINS ? new Date(now.getTime() + LOCKOUT_MS).toISOString() : null;
      this.store.accounts.setLoginFailures(u.id, failed, lock);
      return { lock };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome;
  }

  /** Uncounts a guess whose password was right (or never checked), lifting the lock it set (caller's transaction). */
  private giveBack(userId: string, guess: Guess): void {
    const u = this.store.accounts.userById(userId);
    if (!u) return;
    const locked = guess.lock !== null && u.locked_until === guess.lock ? null : u.locked_until;
    this.store.accounts.setLoginFailures(u.id, Math.max(0, u.failed_logins - 1), locked);
  }

  /** Counts a wrong second-factor code and locks the account at the limit (in the caller's transaction). */
  private recordFailure(userId: string, reason: string): void {
    const user = this.store.accounts.userById(userId);
    if (!user) return;
    const now = this.clock.now();
    const expired = user.locked_until !== null && new Date(user.locked_until) <= now;
    const failed = (expired ? 0 : user.failed_logins) + 1;
    const locked = failed >= MAX_FAILED_LOGINS ? new Date(now.getTime() + LOCKOUT_MS).toISOString() : expired ? null : user.locked_until;
    this.store.accounts.setLoginFailures(user.id, failed, locked);
    this.store.audit.append({ actor: user.name, action: 'session.login_failed', details: { reason, failed, locked_until: locked } });
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

  private challenge(user: UserRecord, method: 'password' | 'ticket'): MfaChallenge {
    const now = this.clock.now();
    const token = secret();
    const expires_at = new Date(now.getTime() + MFA_CHALLENGE_TTL_MS).toISOString();
    this.store.accounts.deleteExpiredMfaChallenges(now.toISOString());
    this.store.accounts.insertMfaChallenge({ token_hash: sha256(token), user_id: user.id, expires_at, attempts: 0 });
    this.store.audit.append({ actor: user.name, action: 'session.mfa_challenge', details: { method } });
    return { mfa_required: true, mfa_token: token, expires_at };
  }

  /**
   * The second step of a login: a TOTP code (±1 step, each step once) or an unused recovery code. A challenge
   * lives MFA_CHALLENGE_TTL_MS and takes at most MFA_MAX_ATTEMPTS codes; wrong codes count towards the lock-out.
   */
  completeMfaLogin(token: string, code: string): NewSession {
    const hash = sha256(token);
    const outcome = this.store.tx((): { session: NewSession } | { error: AuthError } => {
      const now = this.clock.now();
      const ch = this.store.accounts.mfaChallenge(hash);
      const user = ch && this.store.accounts.userById(ch.user_id);
      if (!ch || !user || new Date(ch.expires_at) <= now || ch.attempts >= MFA_MAX_ATTEMPTS) {
        if (ch) this.store.accounts.deleteMfaChallenge(hash);
        return { error: new AuthError('mfa_token_invalid', 'this sign-in has expired or taken too many codes; log in again') };
      }
      if (user.locked_until && new Date(user.locked_until) > now) {
        this.store.accounts.deleteMfaChallenge(hash);
        this.store.audit.append({ actor: user.name, action: 'session.login_failed', details: { reason: 'locked' } });
        return {
          error: new AuthError('account_locked', `too many failed logins; try again after ${user.locked_until} or ask an admin`, {
            locked_until: user.locked_until,
          }),
        };
      }
      const factor = this.mfa.spendCode(user, code);
      if (!factor) {
        this.store.accounts.countMfaAttempt(hash);
        this.recordFailure(user.id, 'bad_mfa_code');
        return {
          error: new AuthError('mfa_code_invalid', 'wrong or already used code', {
            attempts_left: Math.max(0, MFA_MAX_ATTEMPTS - ch.attempts - 1),
          }),
        };
      }
      this.store.accounts.deleteMfaChallenge(hash);
      this.store.accounts.setLoginFailures(user.id, 0, null);
      const details: Record<string, unknown> = { method: 'mfa', factor };
      if (factor === 'recovery_code') details.recovery_codes_left = this.store.accounts.unusedRecoveryCodes(user.id);
      this.store.audit.append({ actor: user.name, action: 'session.login', details });
      return { session: this.openSession(this.store.accounts.userById(user.id)!) };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.session;
  }

  private openSession(user: UserRecord): NewSession {
    const now = this.clock.now();
    const token = secret();
    const csrf_token = secret();
    const expires_at = new Date(now.getTime() + SESSION_TTL_MS).toISOString();
    this.store.accounts.deleteExpiredSessions(now.toISOString());
    this.store.accounts.insertSession({
      token_hash: sha256(token),
      user_id: user.id,
      csrf_token,
      created_at: now.toISOString(),
      expires_at,
    });
    return { token, csrf_token, expires_at, user: publicUser(user), mfa: this.mfa.status(user) };
  }

  /** The session behind a cookie, if it exists and has not expired. */
  session(token: string): { user: PublicUser; csrf_token: string; expires_at: string; mfa: MfaStatus } | undefined {
    const s = this.store.accounts.session(sha256(token));
    if (!s || new Date(s.expires_at) <= this.clock.now()) return undefined;
    const user = this.store.accounts.userById(s.user_id);
    return user && { user: publicUser(user), csrf_token: s.csrf_token, expires_at: s.expires_at, mfa: this.mfa.status(user) };
  }

  /** Whether the user has a second factor and whether the clusters' profiles require one for their role. */
  mfaStatus(userId: string): MfaStatus {
    const user = this.store.accounts.userById(userId);
    if (!user) throw new CoreError('not_found', 'this account no longer exists');
    return this.mfa.status(user);
  }

  /** True while the account may only enrol its second factor (its role requires one it does not have). */
  mfaPending(userId: string): boolean {
    const user = this.store.accounts.userById(userId);
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
    this.store.tx(() => {
      this.store.accounts.deleteSession(sha256(token));
      this.store.audit.append({ actor, action: 'session.logout' });
    });
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
    const token = secret();
    this.store.tx(() => {
      this.store.accounts.deleteTickets('setup');
      this.store.accounts.insertTicket({
        token_hash: sha256(token),
        kind: 'setup',
        user_id: null,
        expires_at: new Date(this.clock.now().getTime() + TICKET_TTL_MS).toISOString(),
      });
    });
    return token;
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
    if (!live(this.store.accounts.ticket(hash, 'setup'))) throw invalid();
    checkNewUser(name, 'admin', password);
    const password_hash = await this.passwordGate.run(() => hashPassword(password));
    return this.store.tx(() => {
      if (this.store.accounts.countUsers() > 0) throw new ConflictError('setup_done', 'the first account already exists; log in instead');
      if (!live(this.store.accounts.takeTicket(hash, 'setup'))) throw invalid();
      const user = this.insertUser(name, 'admin', password_hash, 'setup');
      this.store.audit.append({ actor: name, action: 'session.login', details: { method: 'setup' } });
      return this.openSession(this.store.accounts.userById(user.id)!);
    });
  }

  /** A one-time login ticket for a user, printed by serve as the login link. */
  issueLoginTicket(userName: string): string {
    const user = this.store.accounts.userByName(userName);
    if (!user) throw new CoreError('not_found', `no user named ${userName}`);
    const token = secret();
    this.store.tx(() =>
      this.store.accounts.insertTicket({
        token_hash: sha256(token),
        kind: 'login',
        user_id: user.id,
        expires_at: new Date(this.clock.now().getTime() + TICKET_TTL_MS).toISOString(),
      }),
    );
    return token;
  }

  /** The link proves access to the manager's terminal, not the second factor: an enrolled user gets the challenge. */
  redeemLoginTicket(ticket: string): NewSession | MfaChallenge {
    return this.store.tx(() => {
      const row = this.store.accounts.takeTicket(sha256(ticket), 'login');
      const user = row?.user_id ? this.store.accounts.userById(row.user_id) : undefined;
      if (!row || !user || new Date(row.expires_at) <= this.clock.now())
        throw new AuthError('ticket_invalid', 'this login link is not valid (used or expired); log in with your password');
      if (isEnrolled(user)) return this.challenge(user, 'ticket');
      this.store.audit.append({ actor: user.name, action: 'session.login', details: { method: 'ticket' } });
      return this.openSession(user);
    });
  }

  firstAdminName(): string | undefined {
    return this.store.accounts.firstAdmin()?.name;
  }
}
