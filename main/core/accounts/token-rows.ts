// Rows found by the sha256 of a secret token that expire (browser sessions, MFA login challenges): put, read and
// removed one by one, or all those expired at once.
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';

export class TokenRows<R extends { token_hash: string; expires_at: string }> {
  constructor(
    private readonly db: Db,
    private readonly table: string,
    /** The table's columns, in the order of insertSql. */
    private readonly columns: string,
  ) {}

  insert(row: R): void {
    this.db.prepare(insertSql(this.table, this.columns)).run(row);
  }

  get(tokenHash: string): R | undefined {
    return this.db.prepare(`SELECT * FROM ${this.table} WHERE token_hash = ?`).get(tokenHash) as R | undefined;
  }

  delete(tokenHash: string): void {
    this.db.prepare(`DELETE FROM ${this.table} WHERE token_hash = ?`).run(tokenHash);
  }

  /** Removes the rows expired at `now`; how many there were. */
  deleteExpired(now: string): number {
    return this.db.prepare(`DELETE FROM ${this.table} WHERE expires_at <= ?`).run(now).changes;
  }
}
