// Local accounts: users with roles, password login with lock-out, expiring sessions with a CSRF token, API
// tokens for scripts, and one-time tickets (the first-run setup link and the login link printed by serve).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { ConflictError, CoreError, ValidationError } from '../errors';
import type { Store } from '../store/store';
import type { Role, UserRecord } from '../store/accounts-tables';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords';

export const ROLES: readonly Role[] = ['viewer', 'operator', 'admin'];
const ROLE_RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };
export const roleAtLeast = (role: Role, needed: Role): boolean => ROLE_RANK[role] >= ROLE_RANK[needed];

export const MAX_FAILED_LOGINS = 5;
export const LOCKOUT_MS = 15 * 60_000;
export const SESSION_TTL_MS = 12 * 3600_000;
export const TICKET_TTL_MS = 15 * 60_000;
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
}

export class AuthError extends CoreError {}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const secret = (): string => randomBytes(32).toString('base64url');
export const publicUser = (u: UserRecord): PublicUser => ({ id: u.id, name: u.name, role: u.role, created_at: u.created_at });

export class Accounts {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async addUser(name: string, role: Role, password: string, actor: string): Promise<PublicUser> {
    if (!USER_NAME.test(name)) throw new ValidationError('name', 'a user name is 1 to 64 lowercase letters, digits, ".", "_" or "-", starting with a letter');
    if (!ROLES.includes(role)) throw new ValidationError('role', `role must be one of ${ROLES.join(', ')}`);
    if (password.length < MIN_PASSWORD_LENGTH) throw new ValidationError('password', `a password has at least ${MIN_PASSWORD_LENGTH} characters`);
    const password_hash = await hashPassword(password);
    return this.store.tx(() => {
      if (this.store.accounts.userByName(name)) throw new ConflictError('name_taken', `a user named ${name} already exists`);
      const row: UserRecord = { id: randomUUID(), name, role, password_hash, failed_logins: 0, locked_until: null, created_at: this.clock.now().toISOString() };
      this.store.accounts.insertUser(row);
      this.store.audit.append({ actor, action: 'user.create', target: name, details: { role } });
      return publicUser(row);
    });
  }

  hasUsers(): boolean {
    return this.store.accounts.countUsers() > 0;
  }

  listUsers(): PublicUser[] {
    return this.store.accounts.listUsers().map(publicUser);
  }

  user(id: string): PublicUser | undefined {
    const u = this.store.accounts.userById(id);
    return u && publicUser(u);
  }

  /** Password login. Failures count towards a lock-out; every attempt is audited. */
  async login(name: string, password: string): Promise<NewSession> {
    const user = this.store.accounts.userByName(name);
    const now = this.clock.now();
    if (!user) {
      // Hash anyway so the response time does not tell which names exist.
      await verifyPassword(password, 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=');
      this.store.tx(() => this.store.audit.append({ actor: name, action: 'session.login_failed', details: { reason: 'unknown_user' } }));
      throw new AuthError('invalid_credentials', 'wrong user name or password');
    }
    if (user.locked_until && new Date(user.locked_until) > now) {
      this.store.tx(() => this.store.audit.append({ actor: name, action: 'session.login_failed', details: { reason: 'locked' } }));
      throw new AuthError('account_locked', `too many failed logins; try again after ${user.locked_until} or ask an admin`, { locked_until: user.locked_until });
    }
    const ok = await verifyPassword(password, user.password_hash);
    if (!ok) {
      this.store.tx(() => {
        const failed = user.failed_logins + 1;
        const locked = failed >= MAX_FAILED_LOGINS ? new Date(now.getTime() + LOCKOUT_MS).toISOString() : null;
        this.store.accounts.setLoginFailures(user.id, locked ? 0 : failed, locked);
        this.store.audit.append({ actor: name, action: 'session.login_failed', details: { reason: 'bad_password', failed, locked_until: locked } });
      });
      throw new AuthError('invalid_credentials', 'wrong user name or password');
    }
    return this.store.tx(() => {
      this.store.accounts.setLoginFailures(user.id, 0, null);
      this.store.audit.append({ actor: name, action: 'session.login', details: { method: 'password' } });
      return this.openSession(user);
    });
  }

  private openSession(user: UserRecord): NewSession {
    const now = this.clock.now();
    const token = secret();
    const csrf_token = secret();
    const expires_at = new Date(now.getTime() + SESSION_TTL_MS).toISOString();
    this.store.accounts.deleteExpiredSessions(now.toISOString());
    this.store.accounts.insertSession({ token_hash: sha256(token), user_id: user.id, csrf_token, created_at: now.toISOString(), expires_at });
    return { token, csrf_token, expires_at, user: publicUser(user) };
  }

  /** The session behind a cookie, if it exists and has not expired. */
  session(token: string): { user: PublicUser; csrf_token: string; expires_at: string } | undefined {
    const s = this.store.accounts.session(sha256(token));
    if (!s || new Date(s.expires_at) <= this.clock.now()) return undefined;
    const user = this.store.accounts.userById(s.user_id);
    return user && { user: publicUser(user), csrf_token: s.csrf_token, expires_at: s.expires_at };
  }

  logout(token: string, actor: string): void {
    this.store.tx(() => {
      this.store.accounts.deleteSession(sha256(token));
      this.store.audit.append({ actor, action: 'session.logout' });
    });
  }

  createApiToken(userName: string, actor: string): string {
    const user = this.store.accounts.userByName(userName);
    if (!user) throw new CoreError('not_found', `no user named ${userName}`);
    const token = `navin_${secret()}`;
    this.store.tx(() => {
      this.store.accounts.insertApiToken(sha256(token), user.id, this.clock.now().toISOString());
      this.store.audit.append({ actor, action: 'token.create', target: userName });
    });
    return token;
  }

  apiTokenUser(token: string): PublicUser | undefined {
    const id = this.store.accounts.apiTokenUser(sha256(token));
    return id ? this.user(id) : undefined;
  }

  /** A fresh one-time setup ticket (any older one is void); only while no account exists. */
  issueSetupTicket(): string {
    const token = secret();
    this.store.tx(() => {
      this.store.accounts.deleteTickets('setup');
      this.store.accounts.insertTicket({ token_hash: sha256(token), kind: 'setup', user_id: null, expires_at: new Date(this.clock.now().getTime() + TICKET_TTL_MS).toISOString() });
    });
    return token;
  }

  async completeSetup(ticket: string, name: string, password: string): Promise<NewSession> {
    if (this.hasUsers()) throw new ConflictError('setup_done', 'the first account already exists; log in instead');
    const row = this.store.tx(() => this.store.accounts.takeTicket(sha256(ticket), 'setup'));
    if (!row || new Date(row.expires_at) <= this.clock.now()) throw new AuthError('setup_token_invalid', 'this setup link is not valid (used or expired); restart the manager for a new one');
    const user = await this.addUser(name, 'admin', password, 'setup');
    return this.store.tx(() => {
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
      this.store.accounts.insertTicket({ token_hash: sha256(token), kind: 'login', user_id: user.id, expires_at: new Date(this.clock.now().getTime() + TICKET_TTL_MS).toISOString() }),
    );
    return token;
  }

  redeemLoginTicket(ticket: string): NewSession {
    return this.store.tx(() => {
      const row = this.store.accounts.takeTicket(sha256(ticket), 'login');
      const user = row?.user_id ? this.store.accounts.userById(row.user_id) : undefined;
      if (!row || !user || new Date(row.expires_at) <= this.clock.now()) throw new AuthError('ticket_invalid', 'this login link is not valid (used or expired); log in with your password');
      this.store.audit.append({ actor: user.name, action: 'session.login', details: { method: 'ticket' } });
      return this.openSession(user);
    });
  }

  firstAdminName(): string | undefined {
    return this.store.accounts.firstAdmin()?.name;
  }
}
