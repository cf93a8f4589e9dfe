// The component sheet's documents: one service of a cluster as its agents observed it (never as it was asked
// to be), its host figures over time, its instances' logs. Declared schema first here, served as they are by the API.
import { CHECK_ERROR_CODES, CHECK_WARNING_CODES, type CheckOutcome } from '../wire/service-checks';
import { catalogServiceFields, failureFields, fileContentFields, hostFields } from './records';
import { z } from './zod';

/** A check's outcome as an agent reported it (main/wire/service-checks.ts), which this schema must describe. */
export const checkOutcomeSchema: z.ZodType<CheckOutcome> = z.object({
  kind: z.string(),
  status: z.enum(['pass', 'fail']),
  started_at: z.string(),
  duration_ms: z.number(),
  method: z.string(),
  evidence: z.record(z.string(), z.unknown()),
  steps: z.array(z.object({ name: z.string(), status: z.enum(['pass', 'fail', 'skipped']), detail: z.string().optional() })).optional(),
  error: z.object({ code: z.enum(CHECK_ERROR_CODES), message: z.string() }).optional(),
  /** A pass that needs attention soon (a certificate under 14 days): kept, else the report could not say WARN. */
  warning: z.object({ code: z.enum(CHECK_WARNING_CODES), message: z.string() }).optional(),
});

const ranOn = z.object({ at: z.string(), host_id: z.string(), outcome: checkOutcomeSchema });

/** The latest liveness (per host id), readiness and functional test of a service, as the agents ran them. */
export const observedChecksSchema = z.object({
  liveness: z.record(z.string(), z.object({ at: z.string(), outcome: checkOutcomeSchema })),
  readiness: ranOn.nullable(),
  functional: ranOn.nullable(),
});
export type ObservedChecks = z.infer<typeof observedChecksSchema>;

/** The tabs of the sheet, in their order. */
export const sheetTabs = [
  'overview',
  'instances',
  'configuration',
  'dependencies',
  'logs',
  'metrics',
  'security',
  'operations',
  'upgrade',
  'backups',
  'audit',
  'support',
] as const;
export type SheetTab = (typeof sheetTabs)[number];

/** Why a tab has nothing observed, as a code the console words in its language. */
export const unobservedReasons = [
  'not_installed',
  'no_report_yet',
  'kubernetes_no_instances',
  'kubernetes_no_files',
  'kubernetes_no_logs',
  'kubernetes_no_metrics',
  'kubernetes_no_ports',
  'kubernetes_no_operations',
  'kubernetes_no_support',
  'no_dependencies',
  'not_stateful',
] as const;
export type UnobservedReason = (typeof unobservedReasons)[number];

/** The service as a whole: running when every instance runs, degraded when some do. */
export const observedStates = ['running', 'degraded', 'stopped', 'failed', 'not_observed'] as const;
export type ObservedState = (typeof observedStates)[number];
export const instanceStates = ['running', 'starting', 'stopping', 'stopped', 'failed', 'missing', 'not_observed'] as const;
export type InstanceState = (typeof instanceStates)[number];

export const sheetInstanceSchema = z.object({
  name: z.string(),
  host_id: z.string().nullable(),
  address: z.string().nullable(),
  unit: z.string().nullable(),
  state: z.enum(instanceStates),
  active_state: z.string().nullable(),
  sub_state: z.string().nullable(),
  main_pid: z.number().nullable(),
  since: z.string().nullable(),
  uptime_s: z.number().nullable(),
  restarts: z.number().nullable(),
  memory_bytes: z.number().nullable(),
  liveness: z.object({ at: z.string(), status: z.enum(['pass', 'fail']), ...failureFields }).nullable(),
  /** When the agent last reported what is shown. */
  observed_at: z.string().nullable(),
});
export type SheetInstance = z.infer<typeof sheetInstanceSchema>;

export const sheetFileSchema = z.object({
  host_name: z.string(),
  path: z.string(),
  kind: z.enum(['file', 'unit']),
  /** As the agent hashed it when it wrote it; drift says whether the last scan found it otherwise. */
  ...fileContentFields,
  written_at: z.string(),
  drift: z.enum(['modified', 'deleted', 'replaced']).nullable(),
});
export type SheetFile = z.infer<typeof sheetFileSchema>;

export const sheetDependencySchema = z.object({
  service: z.string(),
  title: z.string(),
  installed: z.boolean(),
  state: z.enum(observedStates),
});
export type SheetDependency = z.infer<typeof sheetDependencySchema>;

/** A certificate a port served, as a handshake saw it; SANs from the issuing CA's ledger (not in the evidence). */
export const sheetCertificateSchema = z.object({
  subject: z.string(),
  /** Null when no ledger of this manager records the serial (the certificate was not issued here). */
  sans: z.array(z.string()).nullable(),
  issuer: z.string(),
  serial: z.string(),
  not_before: z.string(),
  not_after: z.string(),
  /** Whole days from now to not_after, negative once past; expiring: under 14 days. */
  days_left: z.number(),
  expiring: z.boolean(),
  fingerprint256: z.string(),
});
export type SheetCertificate = z.infer<typeof sheetCertificateSchema>;

/** One host's port as the last check that handshook with it saw it; observed is null when none did. */
export const sheetHandshakeSchema = z.object({
  host_name: z.string(),
  observed: z
    .object({
      at: z.string(),
      /** The check (its kind and role) whose evidence holds this handshake, and the host that ran it. */
      check: z.object({ kind: z.string(), role: z.enum(['liveness', 'readiness', 'functional']), host_name: z.string() }),
      target: z.string(),
      /** The TLS version the handshake settled on (TLSv1.3, TLSv1.2); null when it did not complete. */
      protocol: z.string().nullable(),
      cipher: z.string().nullable(),
      certificate: sheetCertificateSchema.nullable(),
    })
    .nullable(),
});
export type SheetHandshake = z.infer<typeof sheetHandshakeSchema>;

export const sheetEndpointSchema = z.object({
  name: z.string(),
  port: z.number(),
  description: z.string(),
  /** Whether the service can serve TLS there, and whether the configuration in effect does. */
  tls_capable: z.boolean(),
  tls_enabled: z.boolean(),
  /** Per host: whether the host's agent saw something listening on the port at its last report. */
  listening: z.array(z.object({ host_name: z.string(), listening: z.boolean().nullable() })),
  /** Per host of a TLS-capable port: the last handshake a check observed there (empty for a plaintext-only port). */
  handshakes: z.array(sheetHandshakeSchema),
  /** The TLS versions those handshakes settled on, each once, newest first. */
  tls_versions: z.array(z.string()),
});
export type SheetEndpoint = z.infer<typeof sheetEndpointSchema>;

export const serviceSheetSchema = z.object({
  cluster_id: z.string(),
  cluster_kind: z.enum(['kubernetes', 'hosts']),
  ...catalogServiceFields,
  /** Tabs with nothing observed, and why; a tab absent here has observations. */
  unobserved: z.partialRecord(z.enum(sheetTabs), z.enum(unobservedReasons)),
  overview: z.object({
    state: z.enum(observedStates),
    instances: z.object({ total: z.number(), running: z.number() }),
    /** The version the agents' receipts installed, and the exporter's own when its check reports one. */
    version: z.string().nullable(),
    reported_version: z.string().nullable(),
    config_version: z.number().nullable(),
    checks: observedChecksSchema.nullable(),
    open_drift: z.array(z.object({ path: z.string(), state: z.string(), host_name: z.string() })),
    operation: z
      .object({ id: z.string(), action: z.string(), state: z.string(), code: z.string().nullable(), finished_at: z.string().nullable() })
      .nullable(),
    observed_at: z.string().nullable(),
  }),
  instances: z.array(sheetInstanceSchema),
  configuration: z.object({ files: z.array(sheetFileSchema) }),
  dependencies: z.object({ depends_on: z.array(sheetDependencySchema), required_by: z.array(sheetDependencySchema) }),
  security: z.object({
    /** Each port, with the certificate each host served there as the checks observed it (never as issued alone). */
    endpoints: z.array(sheetEndpointSchema),
    /** Files of the service that hold secrets (private keys, credentials): mode 0600 or 0640 in the catalog. */
    secrets: z.array(sheetFileSchema),
  }),
});
export type ServiceSheet = z.infer<typeof serviceSheetSchema>;

/** A host's figures over time: CPU busy (0–1 of all its CPUs), memory and root file system, and the unit's own. */
export const metricsPointSchema = z.object({
  /** Seconds since the epoch. */
  t: z.number(),
  cpu_busy: z.number().nullable(),
  memory_used_bytes: z.number().nullable(),
  memory_total_bytes: z.number().nullable(),
  fs_used_bytes: z.number().nullable(),
  fs_size_bytes: z.number().nullable(),
  /** The unit's CPU, in CPUs (1 = one CPU busy), and its cgroup's memory. */
  unit_cpu: z.number().nullable(),
  unit_memory_bytes: z.number().nullable(),
});
export type MetricsPoint = z.infer<typeof metricsPointSchema>;

export const metricsSeriesSchema = z.object({
  ...hostFields,
  /** Where the host figures come from at the last sample. */
  source: z.enum(['node_exporter', 'host']).nullable(),
  /** The failed scrape, when the source is the host although an exporter is named. */
  note: z.string().nullable(),
  /** The exporter skips the root file system here: its figure comes from the kernel. */
  filesystem_from_kernel: z.boolean(),
  points: z.array(metricsPointSchema),
});
export type MetricsSeries = z.infer<typeof metricsSeriesSchema>;

export const serviceMetricsSchema = z.object({
  minutes: z.number(),
  series: z.array(metricsSeriesSchema),
  unobserved: z.enum(unobservedReasons).nullable(),
});
export type ServiceMetrics = z.infer<typeof serviceMetricsSchema>;

export const serviceLogSchema = z.object({
  ...hostFields,
  unit: z.string(),
  /** succeeded: text is the journal's last lines; else the agent did not answer in time, or failed (code). */
  state: z.enum(['succeeded', 'failed', 'unanswered']),
  code: z.string().nullable(),
  text: z.string(),
  read_at: z.string(),
});
export type ServiceLog = z.infer<typeof serviceLogSchema>;
