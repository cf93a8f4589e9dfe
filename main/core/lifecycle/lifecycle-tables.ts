// SQL for what the lifecycle records around operations: preflight runs with their checks, and backup sets
// with the sha256 of each file they wrote.
import type { BackupFile, BackupSet } from '../../contract/backups';
import type { CheckResult } from '../../contract/check-types';
import type { PreflightRun } from '../../contract/profiles';
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';

/** A backup set as stored: the view without its files, which are rows of their own. */
export type BackupSetRecord = Omit<BackupSet, 'files'>;

/** One file of a set, as stored: the file as listed, and its set. */
export type BackupFileRecord = BackupFile & { set_id: string };

export class LifecycleTables {
  constructor(private readonly db: Db) {}

  insertPreflight(row: PreflightRun): void {
    this.db
      .prepare(insertSql('preflight_runs', 'id, cluster_id, trigger, target, started_at, finished_at, outcome, checks, run_by'))
      .run({ ...row, checks: JSON.stringify(row.checks) });
  }

  latestPreflight(clusterId: string): PreflightRun | undefined {
    const row = this.db
      .prepare('SELECT * FROM preflight_runs WHERE cluster_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1')
      .get(clusterId) as (Omit<PreflightRun, 'checks'> & { checks: string }) | undefined;
    return row && { ...row, checks: JSON.parse(row.checks) as CheckResult[] };
  }

  insertBackup(set: BackupSetRecord, files: BackupFileRecord[]): void {
    this.db.prepare(insertSql('backup_sets', 'id, cluster_id, created_at, created_by, source, generation')).run(set);
    const insert = this.db.prepare(insertSql('backup_files', 'set_id, name, file, sha256, size'));
    for (const f of files) insert.run(f);
  }

  backup(setId: string): (BackupSetRecord & { files: BackupFileRecord[] }) | undefined {
    const set = this.db.prepare('SELECT * FROM backup_sets WHERE id = ?').get(setId) as BackupSetRecord | undefined;
    return (
      set && {
        ...set,
        files: this.db.prepare('SELECT * FROM backup_files WHERE set_id = ? ORDER BY name').all(setId) as BackupFileRecord[],
      }
    );
  }

  backups(clusterId: string): (BackupSetRecord & { files: BackupFileRecord[] })[] {
    const sets = this.db
      .prepare('SELECT * FROM backup_sets WHERE cluster_id = ? ORDER BY created_at DESC, id')
      .all(clusterId) as BackupSetRecord[];
    const files = this.db.prepare('SELECT * FROM backup_files WHERE set_id = ? ORDER BY name');
    return sets.map((s) => ({ ...s, files: files.all(s.id) as BackupFileRecord[] }));
  }
}
