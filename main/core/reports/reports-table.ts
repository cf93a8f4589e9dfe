// SQL for signed acceptance reports (stored exactly as signed, never rewritten) and for the internal mirror
// settings the acceptance reads (rows `mirror_url` and `mirror_ca_pem` of the settings table).
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';
import type { MirrorSettings } from '../../contract/reports';
import type { ReportSummary } from '../../contract/report-types';

/** A report's row beside its signed document: what the list shows of it. */
export type ReportRow = ReportSummary;

const MIRROR_URL = 'mirror_url';
const MIRROR_CA = 'mirror_ca_pem';

export class ReportsTable {
  constructor(private readonly db: Db) {}

  /** Stores a report; `document` is the signed JSON text, kept byte for byte. */
  insert(row: ReportRow & { document: string }): void {
    this.db.prepare(insertSql('reports', 'id, cluster_id, cluster_name, created_at, verdict, key_id, document')).run(row);
  }

  list(filter: { cluster_id?: string; limit?: number } = {}): ReportRow[] {
    const limit = Math.min(Math.max(filter.limit ?? 200, 1), 1000);
    const columns = 'id, cluster_id, cluster_name, created_at, verdict, key_id';
    const rows = filter.cluster_id
      ? this.db
          .prepare(`SELECT ${columns} FROM reports WHERE cluster_id = ? ORDER BY created_at DESC, id LIMIT ?`)
          .all(filter.cluster_id, limit)
      : this.db.prepare(`SELECT ${columns} FROM reports ORDER BY created_at DESC, id LIMIT ?`).all(limit);
    return rows as ReportRow[];
  }

  /** The signed JSON text of one report. */
  document(id: string): string | undefined {
    return (this.db.prepare('SELECT document FROM reports WHERE id = ?').get(id) as { document: string } | undefined)?.document;
  }

  mirror(): MirrorSettings {
    const get = (key: string): string | null =>
      (this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined)?.value ?? null;
    return { url: get(MIRROR_URL), ca_pem: get(MIRROR_CA) };
  }

  /** Replaces both mirror settings; a null value removes its row. */
  setMirror(settings: MirrorSettings): void {
    const put = this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    const remove = this.db.prepare('DELETE FROM settings WHERE key = ?');
    for (const [key, value] of [
      [MIRROR_URL, settings.url],
      [MIRROR_CA, settings.ca_pem],
    ] as const) {
      if (value === null) remove.run(key);
      else put.run(key, value);
    }
  }
}
