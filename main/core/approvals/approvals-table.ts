// SQL for four-eyes approvals: requested, decided by another admin, then used once by the requester.
import type { Approval, ApprovalState } from '../../contract/approvals';
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';

/**
 * An approval as stored: the view's own fields (user ids, not names: names can be reused after a deletion, ids
 * cannot), its `change` the canonical JSON (RFC 8785) of the exact request approved, which `digest` is the sha256
 * of (both null only before migration 16).
 */
export type ApprovalRecord = Omit<Approval, 'change' | 'requested_by_name' | 'decided_by_name' | 'diff' | 'usable'> & {
  change: string | null;
};

export class ApprovalsTable {
  constructor(private readonly db: Db) {}

  insert(row: ApprovalRecord): void {
    this.db
      .prepare(
        insertSql(
          'approvals',
          'id, cluster_id, action, service, reason, state, requested_by, requested_at, decided_by, decided_at, decision_note, expires_at, used_at, used_by_command, change, digest',
        ),
      )
      .run(row);
  }

  get(id: string): ApprovalRecord | undefined {
    return this.db.prepare('SELECT * FROM approvals WHERE id = ?').get(id) as ApprovalRecord | undefined;
  }

  list(filter: { cluster_id?: string; state?: ApprovalState; limit?: number }): ApprovalRecord[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.cluster_id) {
      where.push('cluster_id = ?');
      args.push(filter.cluster_id);
    }
    if (filter.state) {
      where.push('state = ?');
      args.push(filter.state);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    return this.db
      .prepare(`SELECT * FROM approvals ${clause} ORDER BY requested_at DESC, id LIMIT ?`)
      .all(...args, Math.min(Math.max(filter.limit ?? 200, 1), 1000)) as ApprovalRecord[];
  }

  /** Moves a pending approval to its decision; false when it was no longer pending (decided concurrently). */
  decide(
    id: string,
    state: 'approved' | 'rejected',
    decidedBy: string,
    decidedAt: string,
    note: string | null,
    expiresAt: string | null,
  ): boolean {
    return (
      this.db
        .prepare(
          "UPDATE approvals SET state = ?, decided_by = ?, decided_at = ?, decision_note = ?, expires_at = ? WHERE id = ? AND state = 'pending'",
        )
        .run(state, decidedBy, decidedAt, note, expiresAt, id).changes === 1
    );
  }

  /** Marks an approved approval used; false when it was used already (the one-use guarantee). */
  markUsed(id: string, usedAt: string, commandId: string): boolean {
    return (
      this.db
        .prepare("UPDATE approvals SET state = 'used', used_at = ?, used_by_command = ? WHERE id = ? AND state = 'approved'")
        .run(usedAt, commandId, id).changes === 1
    );
  }
}
