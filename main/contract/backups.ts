// Configuration backups of a cluster: take one, list them with each file's sha256, verify a set, restore one
// component from it (through the lifecycle gate).
import type { OperationAccepted } from './commands';

export interface BackupFile {
  name: string;
  file: string;
  sha256: string;
  size: number;
}

export interface BackupSet {
  id: string;
  cluster_id: string;
  created_at: string;
  created_by: string;
  source: string;
  generation: number;
  files: BackupFile[];
}

export interface BackupFileCheck extends BackupFile {
  status: 'ok' | 'modified' | 'missing';
  actual_sha256: string | null;
  actual_size: number | null;
}

/** Every file of a set re-hashed now. */
export interface BackupVerification {
  set_id: string;
  cluster_id: string;
  checked_at: string;
  ok: boolean;
  files: BackupFileCheck[];
  /** The files whose content is not the one recorded: modified or missing. */
  mismatches: BackupFileCheck[];
}

export interface BackupRestoreRequest {
  service: string;
  approval_id?: string;
}

export interface BackupRoutes {
  'GET /api/v1/clusters/:id/backups': { result: { items: BackupSet[] } };
  'POST /api/v1/clusters/:id/backups': { result: BackupSet };
  'GET /api/v1/clusters/:id/backups/:set/verify': { result: BackupVerification };
  'POST /api/v1/clusters/:id/backups/:set/restore': { body: BackupRestoreRequest; result: OperationAccepted };
}
