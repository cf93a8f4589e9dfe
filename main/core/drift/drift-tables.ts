// SQL for drift: the findings of hosts clusters (a managed file or unit changed outside the console, open until
// resolved) and each cluster's drift mode (realign allowed, or report only for a change freeze).
import type { DriftFindingView, DriftMode } from '../../contract/drift';
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';

export type { DriftMode };
export type DriftResolution = NonNullable<DriftFindingView['resolution']>;

/** A finding as stored: the view without the host's name and the service, which are read beside it. */
export type DriftFindingRecord = Omit<DriftFindingView, 'host_name' | 'service'>;

export class DriftTables {
  constructor(private readonly db: Db) {}

  mode(clusterId: string): DriftMode {
    const r = this.db.prepare('SELECT drift_mode FROM clusters WHERE id = ?').get(clusterId) as { drift_mode: DriftMode } | undefined;
    return r?.drift_mode ?? 'realign';
  }

  setMode(clusterId: string, mode: DriftMode): void {
    this.db.prepare('UPDATE clusters SET drift_mode = ? WHERE id = ?').run(mode, clusterId);
  }

  open(clusterId: string): DriftFindingRecord[] {
    return this.db
      .prepare('SELECT * FROM drift_findings WHERE cluster_id = ? AND resolved_at IS NULL ORDER BY detected_at, path')
      .all(clusterId) as DriftFindingRecord[];
  }

  /** Open findings first, then the newest resolved ones. */
  list(clusterId: string, limit: number): DriftFindingRecord[] {
    return this.db
      .prepare(
        'SELECT * FROM drift_findings WHERE cluster_id = ? ORDER BY resolved_at IS NOT NULL, coalesce(resolved_at, detected_at) DESC, path LIMIT ?',
      )
      .all(clusterId, limit) as DriftFindingRecord[];
  }

  get(id: string): DriftFindingRecord | undefined {
    return this.db.prepare('SELECT * FROM drift_findings WHERE id = ?').get(id) as DriftFindingRecord | undefined;
  }

  insert(f: Omit<DriftFindingRecord, 'resolved_at' | 'resolution'>): void {
    this.db
      .prepare(
        insertSql(
          'drift_findings',
          'id, cluster_id, host_id, path, kind, state, expected_sha256, observed_sha256, detail, command_id, detected_at, last_seen_at',
        ),
      )
      .run(f);
  }

  /** Seen again, still wrong: its last sighting and what stands there now move. */
  seen(id: string, at: string, state: DriftFindingRecord['state'], observed: string | null, detail: string | null): void {
    this.db
      .prepare('UPDATE drift_findings SET last_seen_at = ?, state = ?, observed_sha256 = ?, detail = ? WHERE id = ?')
      .run(at, state, observed, detail, id);
  }

  resolve(id: string, at: string, resolution: DriftResolution): void {
    this.db
      .prepare('UPDATE drift_findings SET resolved_at = ?, resolution = ? WHERE id = ? AND resolved_at IS NULL')
      .run(at, resolution, id);
  }
}
