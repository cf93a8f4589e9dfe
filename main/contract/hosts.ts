// Hosts of clusters of kind hosts: each host with what its node agent reported, the host's node agent identity
// (and the commands that install it), the signed plans and facts reports sent to it, a plan task by task.
// Declared schema first: the schemas judge a request's JSON shape; what needs the manager's Node side (a host
// name's DNS rule, an IP address, a gateway URL, a plan's paths, units and digests) the core judges, and the
// core's host and plan views are these types.
import { z } from './zod';
import type { RoutesOf } from './route';
import type { HostFacts, ManagedEntry, UnitObservation } from '../wire/node-agent';
import { TASK_KINDS, type TaskStatus } from '../wire/plan';
import { commandListSchema, commandStates, commandViewSchema } from './commands';
import { agentIdentityRequestSchema, agentIdentitySchema } from './kubernetes';
import { agentStatusSchema } from './clusters';
import { queryWholeNumber } from './query-numbers';

export type { HostFacts, ManagedEntry, UnitObservation } from '../wire/node-agent';
export type { PlanTask, TaskKind, TaskStatus } from '../wire/plan';

export const hostStates = ['pending', 'connected', 'offline', 'revoked'] as const;
export type HostState = (typeof hostStates)[number];

const nullableText = z.string().nullable();
const count = z.number();

/** What a node agent reads of its host (systeminformation, systemctl) and reports. */
export const hostFactsSchema = z.object({
  hostname: z.string(),
  os: z.object({ platform: z.string(), distro: z.string(), release: z.string(), codename: z.string() }),
  kernel: z.string(),
  /** Debian / Kubernetes names: amd64, arm64, … */
  architecture: z.string(),
  cpu: z.object({ brand: z.string(), cores: count, physical_cores: count }),
  memory: z.object({ total_bytes: count, available_bytes: count }),
  disks: z.array(z.object({ mount: z.string(), fs: z.string(), type: z.string(), size_bytes: count, available_bytes: count })),
  systemd: z.object({ version: nullableText, system_state: nullableText }),
  /** TCP ports something listens on; absent from older agents (as the next two). */
  listening_ports: z.array(z.number()).optional(),
  sysctl: z.record(z.string(), z.string()).optional(),
  tools: z.record(z.string(), z.boolean()).optional(),
  collected_at: z.string(),
}) satisfies z.ZodType<HostFacts>;

/** A file or unit the agent wrote for the manager, as recorded in its state. */
export const managedEntrySchema = z.object({
  sha256: z.string(),
  size: count,
  command_id: z.string(),
  written_at: z.string(),
}) satisfies z.ZodType<ManagedEntry>;

/** A managed unit as systemd had it when the agent last reported. */
export const unitObservationSchema = z.object({
  load_state: z.string(),
  active_state: z.string(),
  sub_state: z.string(),
  main_pid: count.nullable(),
  active_since: nullableText,
  restarts: count.nullable(),
  memory_bytes: count.nullable(),
  cpu_ns: count.nullable(),
}) satisfies z.ZodType<UnitObservation>;

/** What the gateway last saw of a host's node agent: as of a cluster agent, which alone has replicas. */
export const hostAgentStatusSchema = agentStatusSchema.omit({ leader_replica: true });
export type HostAgentStatus = z.infer<typeof hostAgentStatusSchema>;

/** A host as stored, without what the gateway saw of its agent. */
export const hostSchema = z.object({
  id: z.string(),
  cluster_id: z.string(),
  name: z.string(),
  address: z.string(),
  /** The facts the agent last reported (null: none yet) and when. */
  facts: hostFactsSchema.nullable(),
  facts_at: nullableText,
  /** The files and units the agent manages for the manager, each with its sha256. */
  managed: z.object({ files: z.record(z.string(), managedEntrySchema), units: z.record(z.string(), managedEntrySchema) }).nullable(),
  /** Each managed unit as systemd had it at facts_at (null: no report with units yet). Always sent. */
  units: z.record(z.string(), unitObservationSchema).nullish(),
  created_at: z.string(),
});
export type Host = z.infer<typeof hostSchema>;

export const hostViewSchema = hostSchema.extend({ state: z.enum(hostStates), agent: hostAgentStatusSchema });
export type HostView = z.infer<typeof hostViewSchema>;

export const hostListSchema = z.object({ items: z.array(hostViewSchema) });
export type HostList = z.infer<typeof hostListSchema>;

/** A host to add: its rules (one DNS label, an IP address) are the core's. */
export const hostCreateSchema = z.object({
  name: z.string({ error: 'a host name is one DNS label (letters, digits and inner "-"), at most 63 characters' }),
  address: z.string({ error: 'address is the IPv4 or IPv6 address the host is reached at' }),
});
export type HostCreate = z.input<typeof hostCreateSchema>;

/** As a cluster agent's identity: the gateway's URL, its TLS name, the offline delay and a re-issue's approval. */
export const hostAgentRequestSchema = agentIdentityRequestSchema;
export type HostAgentRequest = z.input<typeof hostAgentRequestSchema>;

/** A host's identity is a cluster agent's, for a host: installed from a package rather than as a Secret. */
export const hostIdentitySchema = agentIdentitySchema.omit({ cluster_id: true, secret_command: true }).extend({
  host_id: z.string(),
  identity_dir: z.string(),
  package_file: z.string(),
  /** What an administrator runs on the host, in the folder holding the package and the five files. */
  install_commands: z.array(z.string()),
});
export type HostIdentity = z.infer<typeof hostIdentitySchema>;

const PLAN_SHAPE = 'a plan is {"tasks": [...]}';

/**
 * A raw plan: each task an id and a kind with the kind's fields. The core judges a task as the agent will (its
 * fields, paths under the managed roots, managed units, inline contents against their digests), signed as given.
 */
export const planRequestSchema = z.object({
  tasks: z.array(z.looseObject({ id: z.string(), kind: z.enum(TASK_KINDS) }), { error: PLAN_SHAPE }),
  title: z.string({ error: 'title is text of at most 200 characters' }).optional(),
});
export type PlanRequest = z.input<typeof planRequestSchema>;

export const taskStatuses = ['pending', 'running', 'succeeded', 'failed', 'skipped'] as const satisfies readonly TaskStatus[];

export const planTaskViewSchema = z.object({
  index: z.number(),
  id: z.string(),
  kind: z.string(),
  title: nullableText,
  status: z.enum(taskStatuses),
  started_at: nullableText,
  finished_at: nullableText,
  duration_ms: count.nullable(),
  code: nullableText,
  message: nullableText,
  output: z.record(z.string(), z.unknown()).nullable(),
  /** The agent died during this task and ran it again after its restart. */
  resumed: z.boolean(),
});
export type PlanTaskView = z.infer<typeof planTaskViewSchema>;

export const planViewSchema = z.object({
  command_id: z.string(),
  host_id: z.string(),
  state: z.enum(commandStates),
  code: nullableText,
  title: nullableText,
  total: count,
  succeeded: count,
  failed_task: nullableText,
  tasks: z.array(planTaskViewSchema),
  /** `output`: below an operator, the tasks that run a program come without their output and message. */
  withheld: z.array(z.literal('output')).optional(),
});
export type PlanView = z.infer<typeof planViewSchema>;

/** The page size of a host's command list. */
export const HOST_COMMAND_LIMIT_RANGE = { min: 1, max: 1000 } as const;

export const hostRouteSchemas = {
  'GET /api/v1/clusters/:id/hosts': { result: hostListSchema },
  'POST /api/v1/clusters/:id/hosts': { body: hostCreateSchema, result: hostViewSchema, status: 201 },
  'GET /api/v1/hosts/:host_id': { result: hostViewSchema },
  /** approval_id: the approved request, where the cluster's profile wants four eyes; "" is none. */
  'DELETE /api/v1/hosts/:host_id': { query: z.object({ approval_id: z.string().optional() }), result: z.null() },
  'POST /api/v1/hosts/:host_id/agent': { body: hostAgentRequestSchema, result: hostIdentitySchema, status: 201 },
  /** A raw plan (admin); refused raw_plan_refused under a four-eyes profile, profile_blocked while the profile is blocked. */
  'POST /api/v1/hosts/:host_id/plans': { body: planRequestSchema, result: commandViewSchema, status: 202 },
  'POST /api/v1/hosts/:host_id/facts/report': { result: commandViewSchema, status: 202 },
  'GET /api/v1/hosts/:host_id/commands': {
    query: z.object({ limit: queryWholeNumber('limit', HOST_COMMAND_LIMIT_RANGE, 50) }),
    result: commandListSchema,
  },
  'GET /api/v1/commands/:id/plan': { result: planViewSchema },
} as const;

export type HostRoutes = RoutesOf<typeof hostRouteSchemas>;
