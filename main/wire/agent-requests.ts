// The bodies the agents post to the gateway, as the manager accepts them: one zod schema each, parsed before
// anything of a body reaches the store. What an agent sends is typed beside (protocol.ts, node-agent.ts, plan.ts);
// these schemas hold the manager's rules on it, and ask nothing of a field the manager does not read, so that an
// older agent that sends less is still served. Parsing keeps the fields no schema names: they are stored as sent.
import { z } from 'zod';
import type { CheckOutcome } from './service-checks';
import { isManagedUnit } from './node-agent';
import { parseTimestamp } from './timestamps';
import { CSR_MAX_CHARS } from './certificate-renewal';

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
export const RECEIPT_BATCH = z.looseObject({ receipts: z.array(z.unknown(), 'is a list') });

/** POST …/certificate: a PKCS#10 request in PEM (the key it names is new; the identity is the caller's certificate's). */
export const CERTIFICATE_RENEWAL = z.looseObject({
  csr: z
    .string()
    .max(CSR_MAX_CHARS, `is at most ${CSR_MAX_CHARS} characters`)
    .regex(/^-----BEGIN CERTIFICATE REQUEST-----\r?\n[\s\S]+-----END CERTIFICATE REQUEST-----\s*$/, 'is a PEM certificate request'),
});

/** POST /v1/cluster-agent/report: the inventory is stored as sent, with the components the agent observes beside it. */
export const CLUSTER_REPORT = z.looseObject({
  /** Read from the request's headers, not from here. */
  replica: z.unknown().optional(),
  agent_version: z.unknown().optional(),
  /** Only `true` makes the sending replica the leader. */
  leader: z.unknown().optional(),
  // Any JSON object, as the agent read it (a null inventory has always been stored as an empty one).
  inventory: z.custom<object | null>((v) => typeof v === 'object', 'inventory is an object'),
  components: z.unknown().optional(),
});
export type ClusterReport = z.infer<typeof CLUSTER_REPORT>;

const HOST_FACTS = z.looseObject({
  hostname: z.string(),
  os: z.looseObject({ platform: z.string(), distro: z.string(), release: z.string(), codename: z.string() }),
  kernel: z.string(),
  architecture: z.string(),
  cpu: z.looseObject({ brand: z.string(), cores: count, physical_cores: count }),
  memory: z.looseObject({ total_bytes: count, available_bytes: count }),
  disks: z.array(z.looseObject({ mount: z.string(), fs: z.string(), type: z.string(), size_bytes: count, available_bytes: count })),
  systemd: z.looseObject({ version: z.string().nullable(), system_state: z.string().nullable() }),
  listening_ports: z.array(z.number().refine(Number.isInteger, 'is a port')).optional(),
  sysctl: z.record(z.string(), z.string()).optional(),
  tools: z.record(z.string(), z.boolean()).optional(),
  collected_at: z.string(),
});

/**
 * A watched unit's liveness outcome: the manager reads its kind, status and time (services keep the latest by
 * it, so it must be a time: "zzzz" would outrank every later one); the rest travels to the services as sent.
 */
const LIVENESS_FIELDS = z.looseObject({
  kind: z.string(),
  status: z.enum(['pass', 'fail']),
  started_at: z.string().refine((s) => parseTimestamp(s) !== null),
});
const LIVENESS_OUTCOME = z.custom<CheckOutcome>(
  (v) => LIVENESS_FIELDS.safeParse(v).success,
  'a liveness outcome is {kind, status: "pass" | "fail", started_at: an RFC 3339 UTC time, …}',
);

const UNIT_OBSERVATION = z.looseObject({
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
});

const HOST_METRICS = z.looseObject({
  at: z.string(),
  source: z.enum(['node_exporter', 'host']),
  cpu: z.looseObject({ total_s: count, idle_s: count, cpus: count }).nullable(),
  memory: z.looseObject({ total_bytes: count, available_bytes: count }).nullable(),
  filesystem: z.looseObject({ mount: z.string(), size_bytes: count, available_bytes: count }).nullable(),
  note: z.string().optional(),
  filesystem_from_kernel: z.boolean().optional(),
});

/**
 * POST /v1/node-agent/report. The preflight, the acceptance and every install gate read the facts, the services
 * the liveness, the sheet the units and metrics: each is judged here. The managed files are stored as sent.
 */
export const HOST_REPORT = z.looseObject({
  agent_version: z.unknown().optional(),
  facts: HOST_FACTS,
  managed: z.unknown().optional(),
  liveness: z.record(managedUnit, LIVENESS_OUTCOME).optional(),
  units: z.record(managedUnit, UNIT_OBSERVATION).optional(),
  metrics: HOST_METRICS.optional(),
});
export type HostReport = z.infer<typeof HOST_REPORT>;

/** One task's outcome as a node agent reports it, of the types the plan's tasks table holds. */
export const TASK_OUTCOME = z.looseObject({
  index: z.number().refine((n) => Number.isInteger(n) && n >= 0, 'is a task index'),
  id: z.string(),
  kind: z.string(),
  status: z.enum(['running', 'succeeded', 'failed', 'skipped']),
  started_at: text,
  finished_at: text,
  code: text,
  message: text,
});
export type ReportedTask = z.infer<typeof TASK_OUTCOME>;

/** POST /v1/node-agent/progress: one task of a running plan started or finished. */
export const PLAN_PROGRESS = z.looseObject({ command_id: z.string(), total: z.unknown().optional(), task: TASK_OUTCOME });
export type PlanProgress = z.infer<typeof PLAN_PROGRESS>;

/** The result of a plan's final receipt, its task list alone (each entry judged by TASK_OUTCOME on its own). */
export const PLAN_RESULT_TASKS = z.looseObject({ tasks: z.array(z.unknown()) });
