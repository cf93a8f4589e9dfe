// SQL for the service backups of hosts clusters (Kubernetes clusters' configuration backups are lifecycle-tables'): a set per "Back up now" or per upgrade of a stateful service, and in
// it the backup of each service (the host it was taken on, its folder there, every file with its sha256).
import type { Db } from '../store/database';
import type { ServiceBackupReason, ServiceBackupSet } from '../../contract/service-backups';

export type ServiceBackupSetState = ServiceBackupSet['state'];
export type { ServiceBackupReason };

/** A set's row: its view's fields but the backups and operations the view gathers from their own rows. */
export type ServiceBackupSetRecord = Omit<ServiceBackupSet, 'backups' | 'operations' | 'withheld'>;

export interface ServiceBackupFile {
  path: string;
  sha256: string;
  size: number;
}

export interface ServiceBackupRecord {
  set_id: string;
  service: string;
  /** The version of the service the backup was taken in: the only one it restores into. */
  version: string;
  host_id: string;
  dir: string;
  /** By the catalog's backup file name. */
  files: Record<string, ServiceBackupFile>;
  operation_id: string;
  created_at: string;
}

type RawSet = Omit<ServiceBackupSetRecord, 'services'> & { services: string };
type RawBackup = Omit<ServiceBackupRecord, 'files'> & { files: string };
const parseSet = (r: RawSet): ServiceBackupSetRecord => ({ ...r, services: JSON.parse(r.services) as string[] });
const parseBackup = (r: RawBackup): ServiceBackupRecord => ({ ...r, files: JSON.parse(r.files) as Record<string, ServiceBackupFile> });

export class ServiceBackupsTables {
  constructor(private readonly db: Db) {}

  insertSet(s: Omit<ServiceBackupSetRecord, 'state' | 'code' | 'message' | 'finished_at'>): void {
    this.db
      .prepare(
        `INSERT INTO service_backup_sets (id, cluster_id, services, reason, state, requested_by, created_at)
         VALUES (@id, @cluster_id, @services, @reason, 'running', @requested_by, @created_at)`,
      )
      .run({ ...s, services: JSON.stringify(s.services) });
  }

  set(id: string): ServiceBackupSetRecord | undefined {
    const r = this.db.prepare('SELECT * FROM service_backup_sets WHERE id = ?').get(id) as RawSet | undefined;
    return r && parseSet(r);
  }

  sets(clusterId: string, limit: number): ServiceBackupSetRecord[] {
    return (
      this.db
        .prepare('SELECT * FROM service_backup_sets WHERE cluster_id = ? ORDER BY created_at DESC, id LIMIT ?')
        .all(clusterId, limit) as RawSet[]
    ).map(parseSet);
  }

  running(): ServiceBackupSetRecord[] {
    return (this.db.prepare("SELECT * FROM service_backup_sets WHERE state = 'running' ORDER BY created_at").all() as RawSet[]).map(
      parseSet,
    );
  }

  finishSet(id: string, state: 'succeeded' | 'failed', code: string | null, message: string | null, at: string): void {
    this.db
      .prepare("UPDATE service_backup_sets SET state = ?, code = ?, message = ?, finished_at = ? WHERE id = ? AND state = 'running'")
      .run(state, code, message, at, id);
  }

  put(b: ServiceBackupRecord): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO service_backups (set_id, service, version, host_id, dir, files, operation_id, created_at)
         VALUES (@set_id, @service, @version, @host_id, @dir, @files, @operation_id, @created_at)`,
      )
      .run({ ...b, files: JSON.stringify(b.files) });
  }

  backups(setId: string): ServiceBackupRecord[] {
    return (this.db.prepare('SELECT * FROM service_backups WHERE set_id = ? ORDER BY created_at, service').all(setId) as RawBackup[]).map(
      parseBackup,
    );
  }

  backup(setId: string, service: string): ServiceBackupRecord | undefined {
    const r = this.db.prepare('SELECT * FROM service_backups WHERE set_id = ? AND service = ?').get(setId, service) as
      RawBackup | undefined;
    return r && parseBackup(r);
  }
}
