// The append-only, hash-chained audit log: every change made through the API leaves one row whose hash
// covers the previous row's hash and its own canonical content, so an edited or removed row is detectable.
import { createHash } from 'node:crypto';
import { canonicalize } from '../../wire/canonical-json';
import { wellFormed, wellFormedValue } from '../well-formed';
import type { Clock } from '../clock';
import type { Db } from './database';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditEntry {
  actor: string;
  action: string;
  cluster_id?: string | null;
  target?: string | null;
  details?: Record<string, unknown>;
}

export interface AuditRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  cluster_id: string | null;
  target: string | null;
  details: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

export type ChainVerdict = { ok: true; rows: number } | { ok: false; rows: number; first_broken_seq: number; reason: string };

export interface AuditQuery {
  actor?: string;
  cluster_id?: string;
  action?: string;
  limit?: number;
  before_seq?: number;
}

interface RawRow extends Omit<AuditRow, 'details'> {
  details: string;
}

function rowHash(prevHash: string, content: Omit<AuditRow, 'prev_hash' | 'hash'>): string {
  return createHash('sha256').update(prevHash).update(canonicalize(content)).digest('hex');
}

export class AuditLog {
  private readonly lastStmt;
  private readonly insertStmt;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.lastStmt = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
    this.insertStmt = db.prepare(
      `INSERT INTO audit_log (seq, at, actor, action, cluster_id, target, details, prev_hash, hash)
       VALUES (@seq, @at, @actor, @action, @cluster_id, @target, @details, @prev_hash, @hash)`,
    );
  }

  /**
   * Appends one row. Call inside the transaction of the change it records, so both land or neither. Strings are
   * made well-formed first: a lone surrogate (from a cluster's API, say) could neither be hashed canonically nor
   * stored as it was, and the row must be both.
   */
  append(entry: AuditEntry): AuditRow {
    const last = this.lastStmt.get() as { seq: number; hash: string } | undefined;
    const content = {
      seq: (last?.seq ?? 0) + 1,
      at: this.clock.now().toISOString(),
      actor: wellFormed(entry.actor),
      action: wellFormed(entry.action),
      cluster_id: entry.cluster_id ?? null,
      target: entry.target === undefined || entry.target === null ? null : wellFormed(entry.target),
      details: wellFormedValue(entry.details ?? {}),
    };
    const prev_hash = last?.hash ?? GENESIS_HASH;
    const row: AuditRow = { ...content, prev_hash, hash: rowHash(prev_hash, content) };
    this.insertStmt.run({ ...row, details: JSON.stringify(row.details) });
    return row;
  }

  list(query: AuditQuery = {}): AuditRow[] {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    for (const key of ['actor', 'cluster_id', 'action'] as const) {
      if (query[key] !== undefined) {
        where.push(`${key} = @${key}`);
        params[key] = query[key];
      }
    }
    if (query.before_seq !== undefined) {
      where.push('seq < @before_seq');
      params.before_seq = query.before_seq;
    }
    params.limit = Math.min(Math.max(query.limit ?? 200, 1), 1000);
    const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT @limit`;
    return (this.db.prepare(sql).all(params) as RawRow[]).map(parseRow);
  }

  /** The rows after `afterSeq`, oldest first: what a consumer that has seen up to afterSeq reads next. */
  since(afterSeq: number, limit = 200): AuditRow[] {
    const rows = this.db
      .prepare('SELECT * FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?')
      .all(afterSeq, Math.min(Math.max(limit, 1), 1000)) as RawRow[];
    return rows.map(parseRow);
  }

  /** The seq of the newest row, 0 for an empty log. */
  lastSeq(): number {
    return (this.lastStmt.get() as { seq: number } | undefined)?.seq ?? 0;
  }

  /** Walks the whole chain from the first row; names the first row whose content or link does not match. */
  verify(): ChainVerdict {
    let prev = GENESIS_HASH;
    let expectedSeq = 1;
    let rows = 0;
    for (const raw of this.db.prepare('SELECT * FROM audit_log ORDER BY seq').iterate() as IterableIterator<RawRow>) {
      rows += 1;
      let row: AuditRow;
      try {
        row = parseRow(raw);
      } catch {
        return { ok: false, rows, first_broken_seq: raw.seq, reason: 'details are not valid JSON' };
      }
      if (row.seq !== expectedSeq) return { ok: false, rows, first_broken_seq: expectedSeq, reason: `row ${expectedSeq} is missing` };
      if (row.prev_hash !== prev) return { ok: false, rows, first_broken_seq: row.seq, reason: 'link to the previous row does not match' };
      const { prev_hash: _p, hash: _h, ...content } = row;
      if (rowHash(prev, content) !== row.hash)
        return { ok: false, rows, first_broken_seq: row.seq, reason: 'content does not match its hash' };
      prev = row.hash;
      expectedSeq += 1;
    }
    return { ok: true, rows };
  }
}

function parseRow(raw: RawRow): AuditRow {
  return { ...raw, details: JSON.parse(raw.details) as Record<string, unknown> };
}
