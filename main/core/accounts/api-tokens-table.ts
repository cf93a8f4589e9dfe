// SQL for API tokens: kept as the sha256 of the token, with a public id, an expiry and a revocation; a revoked
// or expired token stays listed (and recognised, to say why it is refused) until its user is removed.
import type { ApiToken } from '../../contract/tokens';
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';

/** A token as stored: the listed token by its user's id rather than name, with the sha256 of its secret; its state is derived. */
export type ApiTokenRecord = Omit<ApiToken, 'user' | 'state'> & { token_hash: string; user_id: string };

export class ApiTokensTable {
  constructor(private readonly db: Db) {}

  insert(row: ApiTokenRecord): void {
    this.db
      .prepare(insertSql('api_tokens', 'id, token_hash, user_id, name, created_at, created_by, expires_at, revoked_at, revoked_by'))
      .run(row);
  }

  byHash(tokenHash: string): ApiTokenRecord | undefined {
    return this.db.prepare('SELECT * FROM api_tokens WHERE token_hash = ?').get(tokenHash) as ApiTokenRecord | undefined;
  }

  byId(userId: string, id: string): ApiTokenRecord | undefined {
    return this.db.prepare('SELECT * FROM api_tokens WHERE user_id = ? AND id = ?').get(userId, id) as ApiTokenRecord | undefined;
  }

  listForUser(userId: string): ApiTokenRecord[] {
    return this.db.prepare('SELECT * FROM api_tokens WHERE user_id = ? ORDER BY created_at DESC, id').all(userId) as ApiTokenRecord[];
  }

  /** False when the token was already revoked. */
  revoke(id: string, at: string, by: string): boolean {
    return (
      this.db.prepare('UPDATE api_tokens SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL').run(at, by, id)
        .changes === 1
    );
  }
}
