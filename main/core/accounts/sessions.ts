// Sessions (a cookie's token and its CSRF token) and the second-factor challenge a login gets instead of a session
// when the account has one.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import type { MfaChallenge } from '../../contract/session';
import type { Store } from '../store/store';
import type { UserRecord } from './accounts-tables';
import type { Mfa, MfaStatus } from './mfa';
import { secret, sha256 } from './credentials';
import { publicUser, type PublicUser } from './users';

export const SESSION_TTL_MS = 12 * 3600_000;
export const MFA_CHALLENGE_TTL_MS = 5 * 60_000;

export interface NewSession {
  token: string;
  csrf_token: string;
  expires_at: string;
  user: PublicUser;
  mfa: MfaStatus;
}

/** The answer to a first factor when the account has a second one: no session yet, send a code with this token. */
export type { MfaChallenge };

export const isMfaChallenge = (r: NewSession | MfaChallenge): r is MfaChallenge => 'mfa_required' in r;

export class Sessions {
  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'accounts'>,
    private readonly clock: Clock,
    private readonly mfa: Mfa,
  ) {}

  /** In the caller's transaction. */
  challenge(user: UserRecord, method: 'password' | 'ticket'): MfaChallenge {
    const now = this.clock.now();
    const token = secret();
    const expires_at = new Date(now.getTime() + MFA_CHALLENGE_TTL_MS).toISOString();
    this.tables.accounts.mfaChallenges.deleteExpired(now.toISOString());
    this.tables.accounts.mfaChallenges.insert({ token_hash: sha256(token), user_id: user.id, expires_at, attempts: 0 });
    this.store.audit.append({ actor: user.name, action: 'session.mfa_challenge', details: { method } });
    return { mfa_required: true, mfa_token: token, expires_at };
  }

  /** In the caller's transaction. */
  open(user: UserRecord): NewSession {
    const now = this.clock.now();
    const token = secret();
    const csrf_token = secret();
    const expires_at = new Date(now.getTime() + SESSION_TTL_MS).toISOString();
    this.tables.accounts.sessions.deleteExpired(now.toISOString());
    this.tables.accounts.sessions.insert({
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
    const s = this.tables.accounts.sessions.get(sha256(token));
    if (!s || new Date(s.expires_at) <= this.clock.now()) return undefined;
    const user = this.tables.accounts.userById(s.user_id);
    return user && { user: publicUser(user), csrf_token: s.csrf_token, expires_at: s.expires_at, mfa: this.mfa.status(user) };
  }

  logout(token: string, actor: string): void {
    this.store.tx(() => {
      this.tables.accounts.sessions.delete(sha256(token));
      this.store.audit.append({ actor, action: 'session.logout' });
    });
  }
}
