// Services of hosts clusters: what the console installed where, with the latest liveness (per instance),
// readiness and functional test the agents ran; the operations (install, configuration, actions) as phases of
// signed plans followed task by task. Declared schema first: the core's service views are these types. A body's
// shape is judged here; its values (a service and version of the catalog, hosts of the cluster, settings of
// their declared types) by the core, which alone knows them.
import { planViewSchema } from './hosts';
import { queryWholeNumber } from './query-numbers';
import type { RoutesOf } from './route';
import { observedChecksSchema } from './sheet-types';
import { requestedRunFields } from './records';
import { z } from './zod';

export type { CheckOutcome } from '../wire/service-checks';

export const serviceStates = ['installing', 'running', 'stopped', 'failed', 'uninstalling'] as const;
export type ServiceState = (typeof serviceStates)[number];

/** What an operator runs on an installed service; the functional test alone, or every check now. */
export const serviceActions = ['start', 'stop', 'restart', 'uninstall', 'functional_test', 'check'] as const;
export type ServiceAction = (typeof serviceActions)[number];
/** realign: the install's tasks again over what drifted; backup and restore: of a backup set. */
export const serviceOperationActions = [
  'install',
  'configuration',
  'realign',
  'upgrade',
  'rollback',
  'backup',
  'restore',
  // The manager's own: a service's certificates renewed host by host when two thirds of their life have passed.
  'certificates.renew',
  // A plaintext service moved to TLS in place, host by host, its data kept.
  'tls.enable',
  ...serviceActions,
] as const;
export type ServiceOperationAction = (typeof serviceOperationActions)[number];
export const operationStates = ['running', 'succeeded', 'failed'] as const;
export type OperationState = (typeof operationStates)[number];

/** A service's settings by name, each of the type the catalog declares for it. */
export const serviceSettingsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
export type ServiceSettings = z.infer<typeof serviceSettingsSchema>;

/** Per host id for liveness; the first host's readiness and functional test. */
export type ServiceCheckResults = z.infer<typeof observedChecksSchema>;

/** A plan of an operation: the hosts family's plan view, with its host's name. */
const operationPlanSchema = planViewSchema.extend({ host_name: z.string() });

export const operationViewSchema = z.object({
  id: z.string(),
  cluster_id: z.string(),
  service: z.string(),
  action: z.enum(serviceOperationActions),
  version: z.string(),
  state: z.enum(operationStates),
  /** The phase running now, or the last one run. */
  phase: z.number(),
  phases: z.array(z.object({ name: z.string(), hosts: z.array(z.string()), plans: z.array(operationPlanSchema) })),
  /** Tasks done of all the operation's tasks, for a progress bar. */
  progress: z.object({ done: z.number(), total: z.number() }),
  ...requestedRunFields,
});
export type OperationView = z.infer<typeof operationViewSchema>;

export const serviceViewSchema = z.object({
  service: z.string(),
  title: z.string(),
  version: z.string(),
  state: z.enum(serviceStates),
  hosts: z.array(z.object({ id: z.string(), name: z.string(), address: z.string() })),
  config: serviceSettingsSchema,
  /** The configuration version in effect (1 at install, one more per configuration or rollback). */
  config_version: z.number().nullable(),
  checks: observedChecksSchema.nullable(),
  checks_at: z.string().nullable(),
  /** The newest operation on the service. */
  operation: operationViewSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ServiceView = z.infer<typeof serviceViewSchema>;

/** A numbered configuration of a service: the settings an install, a configuration or a rollback applied. */
export const serviceConfigVersionSchema = z.object({
  cluster_id: z.string(),
  service: z.string(),
  number: z.number(),
  config: serviceSettingsSchema,
  /** The operation that applied it. */
  operation_id: z.string(),
  /** A rollback's: the version it brought back. */
  restored_from: z.number().nullable(),
  created_at: z.string(),
});
export type ServiceConfigVersion = z.infer<typeof serviceConfigVersionSchema>;

const migrationSchema = z.object({
  name: z.string(),
  description: z.string(),
  irreversible: z.boolean(),
  run: z.array(z.array(z.string())),
});

/** Whether an upgrade can be rolled back, as its version declares in the catalog. */
export const rollbackPossibilitySchema = z.union([
  z.object({ possible: z.literal(true) }),
  z.object({ possible: z.literal(false), reason: z.string() }),
]);

/** What an upgrade involves, from the catalog: compatibility, migrations (irreversible ones named), rollback. */
export const upgradeAnswerSchema = z.object({
  compatible: z.boolean(),
  problems: z.array(z.string()),
  from: z.string(),
  to: z.string(),
  stateful: z.boolean(),
  migrations: z.array(migrationSchema),
  irreversible: z.array(z.string()),
  rollback: rollbackPossibilitySchema.nullable(),
});
export type UpgradeAnswer = z.infer<typeof upgradeAnswerSchema>;

/** An approval id that is not a non-empty string has always been read as none (the gate then asks for one). */
export const approvalIdSchema = z
  .string()
  .optional()
  .catch(undefined)
  .transform((v) => v || undefined);

const CONFIG_RULE = 'config is an object of the service’s settings';
// No config (or null) is no setting; the settings' names and values are the catalog's to judge.
const settingsInputSchema = z
  .record(z.string(), z.unknown(), { error: CONFIG_RULE })
  .nullish()
  .transform((v) => v ?? undefined);

/**
 * A non-empty list of names judged whole: any fault inside it (an element that is no text) is the field's, worded
 * by its rule, as the route named it before it was declared here.
 */
export const nameListSchema = (rule: string) => z.union([z.array(z.string()).min(1, { error: rule }), z.never()], { error: rule });

const HOSTS_RULE = 'hosts is a non-empty list of host ids or names of this cluster';

export const serviceInstallSchema = z.object({
  service: z.string({ error: 'service is the name of a service of the catalog' }),
  version: z.string({ error: 'version is a version of the service in the catalog' }),
  /** Host ids or names of the cluster; the first runs the readiness and functional test. */
  hosts: nameListSchema(HOSTS_RULE),
  config: settingsInputSchema,
  /** TLS on the service's endpoints: always under a profile other than development, there only when asked. */
  tls: z.boolean({ error: 'tls is true or false' }).optional(),
  approval_id: approvalIdSchema,
});
export type ServiceInstall = z.input<typeof serviceInstallSchema>;

export const serviceConfigureSchema = z.object({ config: settingsInputSchema, approval_id: approvalIdSchema });
export type ServiceConfigure = z.input<typeof serviceConfigureSchema>;

export const serviceActionSchema = z.object({
  action: z.enum(serviceActions, { error: `action is one of ${serviceActions.join(', ')}` }),
  approval_id: approvalIdSchema,
});
export type ServiceActionRequest = z.input<typeof serviceActionSchema>;

const UPGRADE_TO = 'the version to upgrade to';
const upgradeVersionSchema = (name: string) =>
  z.string({ error: `${name} is ${UPGRADE_TO}` }).min(1, { error: `${name} is ${UPGRADE_TO}` });

export const serviceUpgradeSchema = z.object({ version: upgradeVersionSchema('version'), approval_id: approvalIdSchema });
export type ServiceUpgrade = z.input<typeof serviceUpgradeSchema>;

/** A body that carries an approval alone (a rollback). */
export const approvalOnlySchema = z.object({ approval_id: approvalIdSchema });

export const serviceRouteSchemas = {
  'GET /api/v1/clusters/:id/services': { result: z.object({ items: z.array(serviceViewSchema) }) },
  'POST /api/v1/clusters/:id/services': { body: serviceInstallSchema, result: operationViewSchema, status: 202 },
  'GET /api/v1/clusters/:id/services/:service': { result: serviceViewSchema },
  'PUT /api/v1/clusters/:id/services/:service/config': { body: serviceConfigureSchema, result: operationViewSchema, status: 202 },
  'POST /api/v1/clusters/:id/services/:service/actions': { body: serviceActionSchema, result: operationViewSchema, status: 202 },
  'GET /api/v1/clusters/:id/services/:service/operations': {
    query: z.object({ limit: queryWholeNumber('limit', { min: 1, max: 200 }, 20) }),
    result: z.object({ items: z.array(operationViewSchema) }),
  },
  'GET /api/v1/clusters/:id/services/:service/config-versions': { result: z.object({ items: z.array(serviceConfigVersionSchema) }) },
  'GET /api/v1/operations/:id': { result: operationViewSchema },
  'GET /api/v1/clusters/:id/services/:service/upgrade': {
    query: z.object({ to: upgradeVersionSchema('to') }),
    result: upgradeAnswerSchema,
  },
  // Canary first, the rollback sealed before anything runs; a failure rolls back the hosts it touched.
  'POST /api/v1/clusters/:id/services/:service/upgrade': { body: serviceUpgradeSchema, result: operationViewSchema, status: 202 },
  // Back to the version the last upgrade started from; refused (rollback_refused) with the reason when it cannot be.
  'POST /api/v1/clusters/:id/services/:service/rollback': { body: approvalOnlySchema, result: operationViewSchema, status: 202 },
  // A plaintext service moved to TLS in place, host by host; refused (tls_already_enabled) when it serves TLS already.
  'POST /api/v1/clusters/:id/services/:service/tls': { body: approvalOnlySchema, result: operationViewSchema, status: 202 },
} as const;

export type ServiceRoutes = RoutesOf<typeof serviceRouteSchemas>;
