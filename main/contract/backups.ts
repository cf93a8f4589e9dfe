// Configuration backups of a cluster: take one, list them with each file's sha256, verify a set, restore one
// component from it (through the lifecycle gate). Declared schema first: the core's backup views are these types.
import { authorFields, fileContentFields } from './records';
import { z } from './zod';
import type { RoutesOf } from './route';
import { operationAcceptedSchema } from './commands';

export const backupFileSchema = z.object({
  /** What the file holds: `managedcomponent/<name>`, or the desired state. */
  name: z.string(),
  file: z.string(),
  ...fileContentFields,
});
export type BackupFile = z.infer<typeof backupFileSchema>;

export const backupSetSchema = z.object({
  id: z.string(),
  cluster_id: z.string(),
  ...authorFields,
  /** Where the components were read from. */
  source: z.string(),
  /** The desired state's generation when the set was taken. */
  generation: z.number(),
  files: z.array(backupFileSchema),
});
export type BackupSet = z.infer<typeof backupSetSchema>;

export const BACKUP_FILE_STATUSES = ['ok', 'modified', 'missing'] as const;

export const backupFileCheckSchema = backupFileSchema.extend({
  status: z.enum(BACKUP_FILE_STATUSES),
  actual_sha256: z.string().nullable(),
  actual_size: z.number().nullable(),
});
export type BackupFileCheck = z.infer<typeof backupFileCheckSchema>;

/** Every file of a set re-hashed now. */
export const backupVerificationSchema = z.object({
  set_id: z.string(),
  cluster_id: z.string(),
  checked_at: z.string(),
  ok: z.boolean(),
  files: z.array(backupFileCheckSchema),
  /** The files whose content is not the one recorded: modified or missing. */
  mismatches: z.array(backupFileCheckSchema),
});
export type BackupVerification = z.infer<typeof backupVerificationSchema>;

export const backupRestoreRequestSchema = z.object({
  service: z.string({ error: 'service is the name of the component to restore' }).min(1, 'service is the name of the component to restore'),
  /** The approved request's id, where the cluster's profile wants four eyes. */
  approval_id: z.string({ error: 'approval_id is the id of an approved request' }).nullish(),
});
export type BackupRestoreRequest = z.input<typeof backupRestoreRequestSchema>;

export const backupRouteSchemas = {
  'GET /api/v1/clusters/:id/backups': { result: z.object({ items: z.array(backupSetSchema) }) },
  'POST /api/v1/clusters/:id/backups': { result: backupSetSchema, status: 201 },
  'GET /api/v1/clusters/:id/backups/:set/verify': { result: backupVerificationSchema },
  'POST /api/v1/clusters/:id/backups/:set/restore': { body: backupRestoreRequestSchema, result: operationAcceptedSchema, status: 202 },
} as const;

export type BackupRoutes = RoutesOf<typeof backupRouteSchemas>;
