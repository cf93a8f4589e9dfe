// The manager's nonce store in SQLite: a nonce is kept until its envelope could no longer be valid anyway.
import type { NonceStore } from '../../wire/envelope';
import type { Db } from './database';

export class SqliteNonceStore implements NonceStore {
  constructor(private readonly db: Db) {}

  seen(nonce: string): boolean {
    return this.db.prepare('SELECT 1 FROM nonces WHERE nonce = ?').get(nonce) !== undefined;
  }

  remember(nonce: string, keepUntil: Date): void {
    this.db.prepare('INSERT OR REPLACE INTO nonces (nonce, keep_until) VALUES (?, ?)').run(nonce, keepUntil.toISOString());
  }

  prune(now: Date): number {
    return this.db.prepare('DELETE FROM nonces WHERE keep_until < ?').run(now.toISOString()).changes;
  }
}
