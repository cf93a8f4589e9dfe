// Components and commands: the desired components of a cluster and what its agent observes, the operations
// on them (each through the lifecycle gate), and the signed commands with their receipts. Declared schema first:
// the core's command views are these types. A component's spec is judged by the core against the CRD's schema
// (its unknown fields refused, the spec signed and bound by an approval exactly as sent), so the body describes
// the CRD's shape but hands any object on whole.
import { z } from './zod';
import type { RoutesOf } from './route';
import { queryWholeNumber } from './query-numbers';
import type { ManagedComponentSpec } from '../wire/protocol';
import { preflightRunSchema } from './profiles';

export type { ManagedComponentSpec } from '../wire/protocol';

/** The components a ManagedComponent's spec may name (the CRD's `component`). */
export const componentKinds = ['opa', 'openfga', 'etcd', 'nats', 'node-exporter', 'postgresql', 'mariadb'] as const;
export type ComponentKind = (typeof componentKinds)[number];
/** A spec's bounds, as the core checks them before signing: a version of 1 to 64 characters, 0 to 99 replicas. */
export const COMPONENT_VERSION_MAX = 64;
export const COMPONENT_REPLICAS_MAX = 99;

/** A ManagedComponent spec as signed (the CRD's fields). */
export const managedComponentSpecSchema = z.strictObject({
  component: z.string(),
  version: z.string(),
  replicas: z.number().int().optional(),
  artifacts: z.array(z.strictObject({ name: z.string(), image: z.string() })).optional(),
  resources: z.strictObject({ cpu: z.string().optional(), memory: z.string().optional() }).optional(),
  /** Endpoints bound to the service: https://, tls://, http:// or tcp:// URLs. */
  endpoints: z.array(z.strictObject({ name: z.string(), url: z.string() })).optional(),
  /** A sandbox (test) instance. */
  sandbox: z.boolean().optional(),
  /** Changed to ask for a rolling restart (the kubectl rollout restart convention). */
  restartedAt: z.string().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
}) satisfies z.ZodType<ManagedComponentSpec>;

/** A ManagedComponent as the agent last found it in the cluster (its shape as posted, the values unverified). */
export const observedComponentSchema = z.object({ spec: z.unknown(), status: z.unknown() });
export type ObservedComponent = z.infer<typeof observedComponentSchema>;

/** The desired state (generation and components, as signed), and what the agent last reported (null: nothing yet). */
export const componentsViewSchema = z.object({
  cluster_id: z.string(),
  generation: z.number(),
  desired: z.record(z.string(), managedComponentSpecSchema),
  /** null or absent: the agent has reported nothing yet. */
  observed: z.record(z.string(), observedComponentSchema).nullish(),
  observed_at: z.string().nullish(),
});
export type ComponentsView = z.infer<typeof componentsViewSchema>;

/** Under a four-eyes profile: the approved request an operation spends; null or "" is none. */
const approvalIdSchema = z.string({ error: 'approval_id is the id of an approved request' }).nullish();

export const componentApplyRequestSchema = z.object({
  /** The component's name; its rule (a DNS name) is the core's. */
  name: z.string({ error: 'name is required (the component name)' }),
  /**
   * A spec of the CRD's shape, or any other object, which the core then refuses naming the field and its rule
   * (as the console's form does): the spec reaches the core whole, as the requester sent it.
   */
  spec: z.union([managedComponentSpecSchema, z.looseObject({})], { error: 'spec must be an object' }),
  approval_id: approvalIdSchema,
});
export type ComponentApplyRequest = z.input<typeof componentApplyRequestSchema>;

/** The operations of a component besides apply and delete. */
export const componentActions = ['stop', 'start', 'restart', 'rollback'] as const;
export type ComponentAction = (typeof componentActions)[number];

export const componentActionRequestSchema = z.object({
  action: z.enum(componentActions, { error: `action must be one of ${componentActions.join(', ')}` }),
  approval_id: approvalIdSchema,
});
export type ComponentActionRequest = z.input<typeof componentActionRequestSchema>;

export const commandStates = ['queued', 'delivered', 'succeeded', 'failed', 'rejected'] as const;
export type CommandState = (typeof commandStates)[number];

export const commandReceiptSchema = z.object({
  received_at: z.string(),
  status: z.string(),
  code: z.string().nullable(),
  replica: z.string().nullable(),
});
export type CommandReceipt = z.infer<typeof commandReceiptSchema>;

/**
 * What the reader's role does not see: `result` (a journal read's text, for operators and admins only) or
 * `contents` (the files and units a plan writes) or `output` (what the programs a plan runs printed: those
 * tasks' output and message).
 */
export const withheldParts = ['result', 'contents', 'output'] as const;
export type WithheldPart = (typeof withheldParts)[number];

/** A signed command as stored, without its envelope (GET …/envelope has that). */
export const commandSchema = z.object({
  id: z.string(),
  cluster_id: z.string(),
  /** The host a node agent's command is for; null (or absent) for the cluster agent's. */
  host_id: z.string().nullable().optional(),
  op: z.string(),
  args: z.unknown(),
  state: z.enum(commandStates),
  code: z.string().nullable(),
  result: z.unknown(),
  requested_by: z.string(),
  created_at: z.string(),
  not_after: z.string(),
  delivered_at: z.string().nullable(),
  deliveries: z.number(),
  completed_at: z.string().nullable(),
});
export type Command = z.infer<typeof commandSchema>;

/** A signed command and its receipts. */
export const commandViewSchema = commandSchema.extend({
  receipts: z.array(commandReceiptSchema),
  /** Absent: the command is whole. */
  withheld: z.array(z.enum(withheldParts)).optional(),
});
export type CommandView = z.infer<typeof commandViewSchema>;

/** An operation the gate let through: the command it signed, the action it was judged as, its preflight run. */
export const operationAcceptedSchema = commandViewSchema.extend({
  action: z.string(),
  preflight: preflightRunSchema.nullish(),
});
export type OperationAccepted = z.infer<typeof operationAcceptedSchema>;

export const commandListSchema = z.object({ items: z.array(commandViewSchema) });
export type CommandList = z.infer<typeof commandListSchema>;

/** The page size of the command lists. */
export const COMMAND_LIMIT_RANGE = { min: 1, max: 1000 } as const;

export const commandRouteSchemas = {
  'GET /api/v1/clusters/:id/components': { result: componentsViewSchema },
  'POST /api/v1/clusters/:id/components': { body: componentApplyRequestSchema, result: operationAcceptedSchema, status: 202 },
  'DELETE /api/v1/clusters/:id/components/:name': {
    query: z.object({ approval_id: z.string().optional() }),
    result: operationAcceptedSchema,
    status: 202,
  },
  'POST /api/v1/clusters/:id/components/:name/actions': {
    body: componentActionRequestSchema,
    result: operationAcceptedSchema,
    status: 202,
  },
  'POST /api/v1/clusters/:id/inventory/report': { result: operationAcceptedSchema, status: 202 },
  'GET /api/v1/commands': {
    query: z.object({
      cluster_id: z.string().max(256, 'cluster_id is at most 256 characters').optional(),
      limit: queryWholeNumber('limit', COMMAND_LIMIT_RANGE, 200),
    }),
    result: commandListSchema,
  },
  'GET /api/v1/commands/:id': { result: commandViewSchema },
  /** The signed envelope itself, for the agent's fallback inbox when the gateway cannot be reached. */
  'GET /api/v1/commands/:id/envelope': { result: z.unknown() },
} as const;

export type CommandRoutes = RoutesOf<typeof commandRouteSchemas>;
