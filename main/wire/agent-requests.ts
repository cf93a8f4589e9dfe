// The bodies the agents post to the gateway, as the manager accepts them: one zod schema each, parsed before
// anything of a body reaches the store. What an agent sends is typed beside (protocol.ts, node-agent.ts, plan.ts);
// these schemas hold the manager's rules on it, and ask nothing of a field the manager does not read, so that an
// older agent that sends less is still served. Parsing keeps the fields no schema names: they are stored as sent.
import { z } from 'zod';
import type { CheckOutcome } from './service-checks';
import { isManagedUnit } from './node-agent';
import { parseTimestamp } from './timestamps';

/** A count or figure: a finite number, never below zero (zod numbers are finite). */
const count = z.number().min(0, 'is a number of zero or more');
const text = z.string().nullish();
const managedUnit = z.string().refine(isManagedUnit, 'is not a managed unit (navin-<name>.service)');

const RECEIPT_STATUS = z.enum(['succeeded', 'failed', 'rejected']);

/** One receipt, of the types the receipts table and the command's outcome hold. */
const RECEIPT_FIELDS = z.object({
  command_id: z.string(),
  status: RECEIPT_STATUS,
  code: text,
  message: text,
  executed_at: text,
  replica: text,
  result: z.unknown().optional(),
  /** For nonce_replayed: the first execution's outcome, which stays the command's status. */
  original: z.object({ status: RECEIPT_STATUS, code: text, executed_at: text, result: z.unknown().optional() }).nullish(),
});
/** A receipt as the manager records it; whatever an agent sends as a Receipt is one. */
export type ReceivedReceipt = z.infer<typeof RECEIPT_FIELDS>;
export const RECEIPT: z.ZodType<ReceivedReceipt> = RECEIPT_FIELDS.loose();

/**
 * POST …/receipts, its list alone: an agent that sent one was in touch, and its receipts are then judged one by
 * one with RECEIPT, every one before any is recorded (a batch is taken whole or refused whole).
 */
export const RECEIPT_BATCH = z.object({ receipts: z.array(z.unknown(), 'is a list') }).loose();

/** POST /v1/cluster-agent/report: the inventory is stored as sent, with the components the agent observes beside it. */
export const CLUSTER_REPORT = z
  .object({
    /** Read from the request's headers, not from here. */
    replica: z.unknown().optional(),
    agent_version: z.unknown().optional(),
    /** Only `true` makes the sending replica the leader. */
    leader: z.unknown().optional(),
    // Any JSON object, as the agent read it (a null inventory has always been stored as an empty one).
    inventory: z.custom<object | null>((v) => typeof v === 'object', 'inventory is an object'),
    components: z.unknown().optional(),
  })
  .loose();
export type ClusterReport = z.infer<typeof CLUSTER_REPORT>;

const HOST_FACTS = z
  .object({
    hostname: z.string(),
    os: z.object({ platform: z.string(), distro: z.string(), release: z.string(), codename: z.string() }).loose(),
    kernel: z.string(),
    architecture: z.string(),
    cpu: z.object({ brand: z.string(), cores: count, physical_cores: count }).loose(),
    memory: z.object({ total_bytes: count, available_bytes: count }).loose(),
    disks: z.array(z.object({ mount: z.string(), fs: z.string(), type: z.string(), size_bytes: count, available_bytes: count }).loose()),
    systemd: z.object({ version: z.string().nullable(), system_state: z.string().nullable() }).loose(),
    listening_ports: z.array(z.number().refine(Number.isInteger, 'is a port')).optional(),
    sysctl: z.record(z.string(), z.string()).optional(),
    tools: z.record(z.string(), z.boolean()).optional(),
    collected_at: z.string(),
  })
  .loose();

/**
 * A watched unit's liveness outcome: the manager reads its kind, status and time (services keep the latest by
 * it, so it must be a time: "zzzz" would outrank every later one); the rest travels to the services as sent.
 */
const LIVENESS_FIELDS = z
  .object({
    kind: z.string(),
    status: z.enum(['pass', 'fail']),
    started_at: z.string().refine((s) => parseTimestamp(s) !== null),
  })
  .loose();
const LIVENESS_OUTCOME = z.custom<CheckOutcome>(
  (v) => LIVENESS_FIELDS.safeParse(v).success,
  'a liveness outcome is {kind, status: "pass" | "fail", started_at: an RFC 3339 UTC time, …}',
);

const UNIT_OBSERVATION = z
  .object({
    load_state: z.string(),
    active_state: z.string(),
    sub_state: z.string(),
    main_pid: count.nullable(),
    active_since: z
      .string()
      .refine((s) => !Number.isNaN(Date.parse(s)), 'is not a time')
      .nullable(),
    restarts: count.nullable(),
    memory_bytes: count.nullable(),
    cpu_ns: count.nullable(),
  })
  .loose();

const HOST_METRICS = z
  .object({
    at: z.string(),
    source: z.enum(['node_exporter', 'host']),
    cpu: z.object({ total_s: count, idle_s: count, cpus: count }).loose().nullable(),
    memory: z.object({ total_bytes: count, available_bytes: count }).loose().nullable(),
    filesystem: z.object({ mount: z.string(), size_bytes: count, available_bytes: count }).loose().nullable(),
    note: z.string().optional(),
    filesystem_from_kernel: z.boolean().optional(),
  })
  .loose();

/**
 * POST /v1/node-agent/report. The preflight, the acceptance and every install gate read the facts, the services
 * the liveness, the sheet the units and metrics: each is judged here. The managed files are stored as sent.
 */
export const HOST_REPORT = z
  .object({
    agent_version: z.unknown().optional(),
    facts: HOST_FACTS,
    managed: z.unknown().optional(),
    liveness: z.record(managedUnit, LIVENESS_OUTCOME).optional(),
    units: z.record(managedUnit, UNIT_OBSERVATION).optional(),
    metrics: HOST_METRICS.optional(),
  })
  .loose();
export type HostReport = z.infer<typeof HOST_REPORT>;

/** One task's outcome as a node agent reports it, of the types the plan's tasks table holds. */
export const TASK_OUTCOME = z
  .object({
    index: z.number().refine((n) => Number.isInteger(n) && n >= 0, 'is a task index'),
    id: z.string(),
    kind: z.string(),
    status: z.enum(['running', 'succeeded', 'failed', 'skipped']),
    started_at: text,
    finished_at: text,
    code: text,
    message: text,
  })
  .loose();
export type ReportedTask = z.infer<typeof TASK_OUTCOME>;

/** POST /v1/node-agent/progress: one task of a running plan started or finished. */
export const PLAN_PROGRESS = z.object({ command_id: z.string(), total: z.unknown().optional(), task: TASK_OUTCOME }).loose();
export type PlanProgress = z.infer<typeof PLAN_PROGRESS>;

/** The result of a plan's final receipt, its task list alone (each entry judged by TASK_OUTCOME on its own). */
export const PLAN_RESULT_TASKS = z.object({ tasks: z.array(z.unknown()) }).loose();
