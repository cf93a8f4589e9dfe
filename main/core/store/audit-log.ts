// The append-only, hash-chained audit log: every change made through the API leaves one row whose hash
// covers the previous row's hash and its own canonical content, so an edited or removed row is detectable.
import { hash as digest } from 'node:crypto';
import { canonicalize } from '../../wire/canonical-json';
import { WireError } from '../../wire/errors';
import { wellFormed, wellFormedValue } from '../well-formed';
import type { Clock } from '../clock';
import type { Db } from './database';
import type { AuditFilter, AuditRow, ChainVerdict } from '../../contract/audit';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditEntry {
  actor: string;
  action: string;
  cluster_id?: string | null;
  target?: string | null;
  details?: Record<string, unknown>;
}

export type { AuditRow, ChainVerdict };

interface RawRow extends Omit<AuditRow, 'details'> {
  details: string;
}

function rowHash(prevHash: string, content: Omit<AuditRow, 'prev_hash' | 'hash'>): string {
  return chainHash(prevHash, canonicalize(content));
}

function chainHash(prevHash: string, canonicalContent: string): string {
  return digest('sha256', prevHash + canonicalContent, 'hex');
}

/**
 * The details as canonical JSON, well-formed first when they hold a lone surrogate. The common case walks the
 * value once: canonicalize refuses a lone surrogate, and only then is the copy made.
 */
function canonicalDetails(details: Record<string, unknown>): { value: Record<string, unknown>; canonical: string } {
  try {
    return { value: details, canonical: canonicalize(details) };
  } catch (error) {
    if (!(error instanceof WireError) || error.code !== 'jcs_lone_surrogate') throw error;
    const value = wellFormedValue(details);
    return { value, canonical: canonicalize(value) };
  }
}

export class AuditLog {
  private readonly lastStmt;
  private readonly insertStmt;
  private readonly dataVersionStmt;
  /**
   * The newest row as this connection last wrote or read it, with the data_version it was seen at: trusted only
   * while no other connection has committed since (data_version unchanged), and forgotten when a transaction
   * rolls back (Store.tx calls forgetLast). Appends run inside Store.tx, which holds SQLite's write lock from its
   * BEGIN IMMEDIATE, so no other writer can slip a row in between the check and the insert, and once checked
   * in a transaction the row needs no second check until it ends (`lock` is the transaction it was checked in).
   */
  private last: { seq: number; hash: string; version: number; lock: number } | null = null;
  /** Numbers Store.tx's outermost transactions; 0 while none is open (then every append checks data_version). */
  private lock = 0;
  private locks = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.lastStmt = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
    this.insertStmt = db.prepare(
      `INSERT INTO audit_log (seq, at, actor, action, cluster_id, target, details, prev_hash, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.dataVersionStmt = db.prepare('PRAGMA data_version').pluck();
  }

  /** Store.tx's outermost transaction holds the write lock from here until released. */
  lockTaken(): void {
    this.lock = ++this.locks;
  }

  lockReleased(): void {
    this.lock = 0;
  }

  /** Drops the remembered newest row: its transaction rolled back, so the row may not exist. */
  forgetLast(): void {
    this.last = null;
  }

  private newest(): { seq: number; hash: string; version: number; lock: number } {
    const held = this.db.inTransaction ? this.lock : 0;
    if (this.last !== null && held !== 0 && this.last.lock === held) return this.last;
    const version = this.dataVersionStmt.get() as number;
    if (this.last !== null && this.last.version === version) return (this.last = { ...this.last, lock: held });
    const row = this.lastStmt.get() as { seq: number; hash: string } | undefined;
    return { seq: row?.seq ?? 0, hash: row?.hash ?? GENESIS_HASH, version, lock: held };
  }

  /**
   * Appends one row. Call inside the transaction of the change it records, so both land or neither. Strings are
   * made well-formed first: a lone surrogate (from a cluster's API, say) could neither be hashed canonically nor
   * stored as it was, and the row must be both. The details are stored as their canonical JSON, the same text
   * the hash covers, so they are serialised once. The returned row's details are the caller's object when it
   * was already well-formed.
   */
  append(entry: AuditEntry): AuditRow {
    const last = this.newest();
    const seq = last.seq + 1;
    const at = this.clock.now().toISOString();
    const actor = wellFormed(entry.actor);
    const action = wellFormed(entry.action);
    const cluster_id = entry.cluster_id ?? null;
    const target = entry.target === undefined || entry.target === null ? null : wellFormed(entry.target);
    const details = canonicalDetails(entry.details ?? {});
    // The canonical form of { seq, at, actor, action, cluster_id, target, details }: keys in RFC 8785 order, the
    // well-formed strings serialised by JSON.stringify exactly as canonicalize does (the tests check both agree).
    const canonical =
      `{"action":${JSON.stringify(action)},"actor":${JSON.stringify(actor)},"at":${JSON.stringify(at)},` +
      `"cluster_id":${canonicalize(cluster_id)},"details":${details.canonical},"seq":${seq},` +
      `"target":${target === null ? 'null' : JSON.stringify(target)}}`;
    const hash = chainHash(last.hash, canonical);
    this.insertStmt.run(seq, at, actor, action, cluster_id, target, details.canonical, last.hash, hash);
    this.last = { seq, hash, version: last.version, lock: last.lock };
    return { seq, at, actor, action, cluster_id, target, details: details.value, prev_hash: last.hash, hash };
  }

  list(query: AuditFilter = {}): AuditRow[] {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    for (const key of ['actor', 'cluster_id', 'action', 'target'] as const) {
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
    return this.newest().seq;
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
