// The component sheet's documents: one service of a cluster as its agents observed it (never as it was asked
// to be), its host figures over time, its instances' logs. Defined once here, served as they are by the API.
import type { CheckOutcome } from '../wire/service-checks';

type ClusterKind = 'kubernetes' | 'hosts';

/** The latest liveness (per host id), readiness and functional test of a service, as the agents ran them. */
export interface ObservedChecks {
  liveness: Record<string, { at: string; outcome: CheckOutcome }>;
  readiness: { at: string; host_id: string; outcome: CheckOutcome } | null;
  functional: { at: string; host_id: string; outcome: CheckOutcome } | null;
}

/** The tabs of the sheet, in their order. */
export type SheetTab =
  | 'overview'
  | 'instances'
  | 'configuration'
  | 'dependencies'
  | 'logs'
  | 'metrics'
  | 'security'
  | 'operations'
  | 'upgrade'
  | 'backups'
  | 'audit'
  | 'support';

/** Why a tab has nothing observed, as a code the console words in its language. */
export type UnobservedReason =
  | 'not_installed'
  | 'no_report_yet'
  | 'kubernetes_no_instances'
  | 'kubernetes_no_files'
  | 'kubernetes_no_logs'
  | 'kubernetes_no_metrics'
  | 'kubernetes_no_ports'
  | 'kubernetes_no_operations'
  | 'kubernetes_no_support'
  | 'no_dependencies'
  | 'not_stateful';

/** The service as a whole: running when every instance runs, degraded when some do. */
export type ObservedState = 'running' | 'degraded' | 'stopped' | 'failed' | 'not_observed';
export type InstanceState = 'running' | 'starting' | 'stopping' | 'stopped' | 'failed' | 'missing' | 'not_observed';

export interface SheetInstance {
  name: string;
  host_id: string | null;
  address: string | null;
  unit: string | null;
  state: InstanceState;
  active_state: string | null;
  sub_state: string | null;
  main_pid: number | null;
  since: string | null;
  uptime_s: number | null;
  restarts: number | null;
  memory_bytes: number | null;
  liveness: { at: string; status: 'pass' | 'fail'; code: string | null; message: string | null } | null;
  /** When the agent last reported what is shown. */
  observed_at: string | null;
}

export interface SheetFile {
  host_name: string;
  path: string;
  kind: 'file' | 'unit';
  /** As the agent hashed it when it wrote it; drift says whether the last scan found it otherwise. */
  sha256: string;
  size: number;
  written_at: string;
  drift: 'modified' | 'deleted' | 'replaced' | null;
}

export interface SheetDependency {
  service: string;
  title: string;
  installed: boolean;
  state: ObservedState;
}

export interface SheetEndpoint {
  name: string;
  port: number;
  description: string;
  /** Whether the service can serve TLS there, and whether the configuration in effect does. */
  tls_capable: boolean;
  tls_enabled: boolean;
  /** Per host: whether the host's agent saw something listening on the port at its last report. */
  listening: { host_name: string; listening: boolean | null }[];
}

export interface ServiceSheet {
  cluster_id: string;
  cluster_kind: ClusterKind;
  service: string;
  title: string;
  description: string;
  stateful: boolean;
  /** Tabs with nothing observed, and why; a tab absent here has observations. */
  unobserved: Partial<Record<SheetTab, UnobservedReason>>;
  overview: {
    state: ObservedState;
    instances: { total: number; running: number };
    /** The version the agents' receipts installed, and the exporter's own when its check reports one. */
    version: string | null;
    reported_version: string | null;
    config_version: number | null;
    checks: ObservedChecks | null;
    open_drift: { path: string; state: string; host_name: string }[];
    operation: { id: string; action: string; state: string; code: string | null; finished_at: string | null } | null;
    observed_at: string | null;
  };
  instances: SheetInstance[];
  configuration: { files: SheetFile[] };
  dependencies: { depends_on: SheetDependency[]; required_by: SheetDependency[] };
  security: {
    /** No certificate is listed: the console installs services without TLS so far (each endpoint says so). */
    endpoints: SheetEndpoint[];
    /** Files of the service that hold secrets (private keys, credentials): mode 0600 or 0640 in the catalog. */
    secrets: SheetFile[];
  };
}

/** A host's figures over time: CPU busy (0–1 of all its CPUs), memory and root file system, and the unit's own. */
export interface MetricsPoint {
  /** Seconds since the epoch. */
  t: number;
  cpu_busy: number | null;
  memory_used_bytes: number | null;
  memory_total_bytes: number | null;
  fs_used_bytes: number | null;
  fs_size_bytes: number | null;
  /** The unit's CPU, in CPUs (1 = one CPU busy), and its cgroup's memory. */
  unit_cpu: number | null;
  unit_memory_bytes: number | null;
}

export interface MetricsSeries {
  host_id: string;
  host_name: string;
  /** Where the host figures come from at the last sample. */
  source: 'node_exporter' | 'host' | null;
  /** The failed scrape, when the source is the host although an exporter is named. */
  note: string | null;
  /** The exporter skips the root file system here: its figure comes from the kernel. */
  filesystem_from_kernel: boolean;
  points: MetricsPoint[];
}

export interface ServiceMetrics {
  minutes: number;
  series: MetricsSeries[];
  unobserved: UnobservedReason | null;
}

export interface ServiceLog {
  host_id: string;
  host_name: string;
  unit: string;
  /** succeeded: text is the journal's last lines; else the agent did not answer in time, or failed (code). */
  state: 'succeeded' | 'failed' | 'unanswered';
  code: string | null;
  text: string;
  read_at: string;
}
