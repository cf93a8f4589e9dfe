// SQL for local accounts: users, browser sessions, API tokens, one-time tickets (setup and login links) and the
// second factor (TOTP, recovery codes, login challenges). Secrets are never stored in clear: sessions, tokens,
// tickets, recovery codes and challenges are kept as sha256 hashes, the TOTP secret sealed.
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';
import { TokenRows } from './token-rows';

export type Role = 'viewer' | 'operator' | 'admin';

export interface UserRecord {
  id: string;
  name: string;
  role: Role;
  password_hash: string;
  failed_logins: number;
  locked_until: string | null;
  created_at: string;
  /** Sealed by the manager's KeyProtector; set from the start of an enrolment. */
  totp_sealed_secret: Buffer | null;
  /** Null until the first code confirms the enrolment: only then is the second factor asked at login. */
  totp_confirmed_at: string | null;
  /** The newest TOTP time step accepted, so that no step is accepted twice. */
  totp_last_step: number | null;
}

export interface MfaChallengeRecord {
  token_hash: string;
  user_id: string;
  expires_at: string;
  attempts: number;
}

export interface SessionRecord {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface TicketRecord {
  token_hash: string;
  kind: 'setup' | 'login';
  user_id: string | null;
  expires_at: string;
}

export class AccountsTables {
  readonly sessions: TokenRows<SessionRecord>;
  readonly mfaChallenges: TokenRows<MfaChallengeRecord>;

  constructor(private readonly db: Db) {
    this.sessions = new TokenRows(db, 'sessions', 'token_hash, user_id, csrf_token, created_at, expires_at');
    this.mfaChallenges = new TokenRows(db, 'mfa_challenges', 'token_hash, user_id, expires_at, attempts');
  }

  insertUser(row: UserRecord): void {
    this.db.prepare(insertSql('users', 'id, name, role, password_hash, failed_logins, locked_until, created_at')).run(row);
  }

  userByName(name: string): UserRecord | undefined {
    return this.db.prepare('SELECT * FROM users WHERE name = ?').get(name) as UserRecord | undefined;
  }

  userById(id: string): UserRecord | undefined {
    return this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRecord | undefined;
  }

  countUsers(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
  }

  firstAdmin(): UserRecord | undefined {
    return this.db.prepare("SELECT * FROM users WHERE role = 'admin' ORDER BY created_at, name LIMIT 1").get() as UserRecord | undefined;
  }

  listUsers(): UserRecord[] {
    return this.db.prepare('SELECT * FROM users ORDER BY name').all() as UserRecord[];
  }

  setLoginFailures(id: string, failed: number, lockedUntil: string | null): void {
    this.db.prepare('UPDATE users SET failed_logins = ?, locked_until = ? WHERE id = ?').run(failed, lockedUntil, id);
  }

  insertTicket(row: TicketRecord): void {
    this.db.prepare(insertSql('tickets', 'token_hash, kind, user_id, expires_at')).run(row);
  }

  /** The ticket, left in place (to judge a request before spending anything on it). */
  ticket(tokenHash: string, kind: TicketRecord['kind']): TicketRecord | undefined {
    return this.db.prepare('SELECT * FROM tickets WHERE token_hash = ? AND kind = ?').get(tokenHash, kind) as TicketRecord | undefined;
  }

  /** Removes the ticket and returns it: a ticket is good for one use only. */
  takeTicket(tokenHash: string, kind: TicketRecord['kind']): TicketRecord | undefined {
    const row = this.db.prepare('SELECT * FROM tickets WHERE token_hash = ? AND kind = ?').get(tokenHash, kind) as TicketRecord | undefined;
    if (row) this.db.prepare('DELETE FROM tickets WHERE token_hash = ?').run(tokenHash);
    return row;
  }

  deleteTickets(kind: TicketRecord['kind']): void {
    this.db.prepare('DELETE FROM tickets WHERE kind = ?').run(kind);
  }

  startTotpEnrolment(userId: string, sealedSecret: Buffer): void {
    this.db
      .prepare('UPDATE users SET totp_sealed_secret = ?, totp_confirmed_at = NULL, totp_last_step = NULL WHERE id = ?')
      .run(sealedSecret, userId);
  }

  confirmTotp(userId: string, confirmedAt: string, step: number): void {
    this.db.prepare('UPDATE users SET totp_confirmed_at = ?, totp_last_step = ? WHERE id = ?').run(confirmedAt, step, userId);
  }

  /** Records `step` as used; false when this step or a newer one was already used. */
  takeTotpStep(userId: string, step: number): boolean {
    return (
      this.db
        .prepare('UPDATE users SET totp_last_step = ? WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?)')
        .run(step, userId, step).changes === 1
    );
  }

  /** Removes the TOTP secret, the recovery codes and pending challenges of a user. */
  clearMfa(userId: string): void {
    this.db.prepare('UPDATE users SET totp_sealed_secret = NULL, totp_confirmed_at = NULL, totp_last_step = NULL WHERE id = ?').run(userId);
    this.db.prepare('DELETE FROM recovery_codes WHERE user_id = ?').run(userId);
    this.db.prepare('DELETE FROM mfa_challenges WHERE user_id = ?').run(userId);
  }

  replaceRecoveryCodes(userId: string, codeHashes: readonly string[]): void {
    this.db.prepare('DELETE FROM recovery_codes WHERE user_id = ?').run(userId);
    const insert = this.db.prepare('INSERT INTO recovery_codes (user_id, code_hash, used_at) VALUES (?, ?, NULL)');
    for (const h of codeHashes) insert.run(userId, h);
  }

  /** Marks an unused recovery code used; false when there is no such unused code. */
  useRecoveryCode(userId: string, codeHash: string, usedAt: string): boolean {
    return (
      this.db
        .prepare('UPDATE recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL')
        .run(usedAt, userId, codeHash).changes === 1
    );
  }

  unusedRecoveryCodes(userId: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM recovery_codes WHERE user_id = ? AND used_at IS NULL').get(userId) as { n: number })
      .n;
  }

  countMfaAttempt(tokenHash: string): void {
    this.db.prepare('UPDATE mfa_challenges SET attempts = attempts + 1 WHERE token_hash = ?').run(tokenHash);
  }
}
