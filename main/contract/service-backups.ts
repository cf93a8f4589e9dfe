// Backups of the services of a hosts cluster: sets taken by "Back up now" (the chosen services in dependency
// order under one set id) or by an upgrade of a stateful service, each file with its sha256; a restore of one
// service from a set, its files checked again before anything is stopped.
import type { OperationView } from './services';

export interface ServiceBackup {
  service: string;
  /** The version it was taken in: the one it restores into. */
  version: string;
  host: { id: string; name: string };
  dir: string;
  files: { name: string; path: string; sha256: string; size: number }[];
  taken_at: string;
}

export interface ServiceBackupSet {
  id: string;
  cluster_id: string;
  /** manual: "Back up now"; upgrade: the backup an upgrade took before it started. */
  reason: 'manual' | 'upgrade';
  state: 'running' | 'succeeded' | 'failed';
  code: string | null;
  message: string | null;
  /** In the order they are backed up (dependencies first). */
  services: string[];
  backups: ServiceBackup[];
  operations: { service: string; id: string; action: string; state: string }[];
  requested_by: string;
  created_at: string;
  finished_at: string | null;
  /** Below an operator: the message is withheld when it quotes what a backup tool printed. */
  withheld?: 'output'[];
}

export interface ServiceBackupRoutes {
  'GET /api/v1/clusters/:id/service-backups': { query: { limit?: number }; result: { items: ServiceBackupSet[] } };
  /** Every installed service that keeps data when `services` is left out. */
  'POST /api/v1/clusters/:id/service-backups': { body: { services?: string[]; approval_id?: string }; result: ServiceBackupSet };
  'GET /api/v1/clusters/:id/service-backups/:set': { result: ServiceBackupSet };
  /** Refused backup_version_mismatch unless the service runs the backup's version (or it is its upgrade's backup). */
  'POST /api/v1/clusters/:id/service-backups/:set/restore': { body: { service: string; approval_id?: string }; result: OperationView };
}
