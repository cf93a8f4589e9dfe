// SQL for local accounts: users, browser sessions, API tokens and one-time tickets (setup and login links).
// Secrets are never stored in clear: sessions, tokens and tickets are kept as sha256 hashes.
import type { Db } from './database';

export type Role = 'viewer' | 'operator' | 'admin';

export interface UserRecord {
  id: string;
  name: string;
  role: Role;
  password_hash: string;
  failed_logins: number;
  locked_until: string | null;
  created_at: string;
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
  constructor(private readonly db: Db) {}

  insertUser(row: UserRecord): void {
    this.db
      .prepare(
        `INSERT INTO users (id, name, role, password_hash, failed_logins, locked_until, created_at)
         VALUES (@id, @name, @role, @password_hash, @failed_logins, @locked_until, @created_at)`,
      )
      .run(row);
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

  insertSession(row: SessionRecord): void {
    this.db
      .prepare('INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, expires_at) VALUES (@token_hash, @user_id, @csrf_token, @created_at, @expires_at)')
      .run(row);
  }

  session(tokenHash: string): SessionRecord | undefined {
    return this.db.prepare('SELECT * FROM sessions WHERE token_hash = ?').get(tokenHash) as SessionRecord | undefined;
  }

  deleteSession(tokenHash: string): void {
    this.db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash);
  }

  deleteExpiredSessions(now: string): number {
    return this.db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(now).changes;
  }

  insertApiToken(tokenHash: string, userId: string, createdAt: string): void {
    this.db.prepare('INSERT INTO api_tokens (token_hash, user_id, created_at) VALUES (?, ?, ?)').run(tokenHash, userId, createdAt);
  }

  apiTokenUser(tokenHash: string): string | undefined {
    return (this.db.prepare('SELECT user_id FROM api_tokens WHERE token_hash = ?').get(tokenHash) as { user_id: string } | undefined)?.user_id;
  }

  insertTicket(row: TicketRecord): void {
    this.db.prepare('INSERT INTO tickets (token_hash, kind, user_id, expires_at) VALUES (@token_hash, @kind, @user_id, @expires_at)').run(row);
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
}
