// Backups of the services of a hosts cluster: sets taken by "Back up now" (the chosen services in dependency
// order under one set id) or by an upgrade of a stateful service, each file with its sha256; a restore of one
// service from a set, its files checked again before anything is stopped. Declared schema first: the core's
// backup set views are these types.
import { queryWholeNumber } from './query-numbers';
import type { RoutesOf } from './route';
import { approvalIdSchema, nameListSchema, operationStates, operationViewSchema } from './services';
import { fileContentFields, requestedRunFields } from './records';
import { z } from './zod';

export const serviceBackupSchema = z.object({
  service: z.string(),
  /** The version it was taken in: the one it restores into. */
  version: z.string(),
  host: z.object({ id: z.string(), name: z.string() }),
  dir: z.string(),
  files: z.array(z.object({ name: z.string(), path: z.string(), ...fileContentFields })),
  taken_at: z.string(),
});
export type ServiceBackup = z.infer<typeof serviceBackupSchema>;

/** manual: "Back up now"; upgrade: the backup an upgrade took before it started. */
export const serviceBackupReasons = ['manual', 'upgrade'] as const;
export type ServiceBackupReason = (typeof serviceBackupReasons)[number];

export const serviceBackupSetSchema = z.object({
  id: z.string(),
  cluster_id: z.string(),
  reason: z.enum(serviceBackupReasons),
  state: z.enum(operationStates),
  /** In the order they are backed up (dependencies first). */
  services: z.array(z.string()),
  backups: z.array(serviceBackupSchema),
  /** The operation of each service of the set (a backup, or the upgrade that took it first). */
  operations: z.array(z.object({ service: z.string(), id: z.string(), action: z.string(), state: z.string() })),
  ...requestedRunFields,
  /** Below an operator: the message is withheld when it quotes what a backup tool printed. */
  withheld: z.array(z.literal('output')).optional(),
});
export type ServiceBackupSet = z.infer<typeof serviceBackupSetSchema>;

/** Every installed service that keeps data when `services` is left out (or null). */
export const serviceBackupCreateSchema = z.object({
  services: nameListSchema('services is a non-empty list of installed service names')
    .nullish()
    .transform((v) => v ?? undefined),
  approval_id: approvalIdSchema,
});
export type ServiceBackupCreate = z.input<typeof serviceBackupCreateSchema>;

const RESTORED = 'service is the service to restore';
export const serviceBackupRestoreSchema = z.object({
  service: z.string({ error: RESTORED }).min(1, { error: RESTORED }),
  approval_id: approvalIdSchema,
});
export type ServiceBackupRestore = z.input<typeof serviceBackupRestoreSchema>;

export const serviceBackupRouteSchemas = {
  'GET /api/v1/clusters/:id/service-backups': {
    query: z.object({ limit: queryWholeNumber('limit', { min: 1, max: 200 }, 50) }),
    result: z.object({ items: z.array(serviceBackupSetSchema) }),
  },
  'POST /api/v1/clusters/:id/service-backups': { body: serviceBackupCreateSchema, result: serviceBackupSetSchema, status: 202 },
  'GET /api/v1/clusters/:id/service-backups/:set': { result: serviceBackupSetSchema },
  // Refused backup_version_mismatch unless the service runs the backup's version (or it is its upgrade's backup).
  'POST /api/v1/clusters/:id/service-backups/:set/restore': { body: serviceBackupRestoreSchema, result: operationViewSchema, status: 202 },
} as const;

export type ServiceBackupRoutes = RoutesOf<typeof serviceBackupRouteSchemas>;
