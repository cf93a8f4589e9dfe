// The manager–node-agent protocol: the gateway routes a host's agent uses, its signed config, the facts it
// reports and the operations it runs. Same envelopes and receipts as the cluster agent (protocol.ts).
import { isPlainObject } from './payloads';
import type { PlanProgressRequest } from './plan';
import type { CheckOutcome } from './service-checks';
import type { AgentConfigCommon } from './protocol';

export const NODE_AGENT_PATHS = {
  commands: '/v1/node-agent/commands',
  report: '/v1/node-agent/report',
  receipts: '/v1/node-agent/receipts',
  /** Task-by-task progress of a running plan (best effort: the final receipt carries every task's outcome). */
  progress: '/v1/node-agent/progress',
  /** A CSR in, a client certificate for the calling host out (certificate-renewal.ts). */
  certificate: '/v1/node-agent/certificate',
} as const;

/** The URI (CN and URI SAN of its client certificate) that binds a node agent to its host. */
export const hostUri = (hostId: string): string => `urn:navin:host:${hostId}`;

export const OP_PLAN_EXECUTE = 'plan.execute';
export const OP_FACTS_REPORT = 'facts.report';
/** Read-only: every managed file and unit hashed again, as it is on disk now. */
export const OP_DRIFT_SCAN = 'drift.scan';
/** Read-only: the last lines of a managed unit's journal, {unit, lines}. */
export const OP_JOURNAL_TAIL = 'journal.tail';
export const MAX_JOURNAL_LINES = 5000;
export const NODE_OPERATIONS: readonly string[] = [OP_PLAN_EXECUTE, OP_FACTS_REPORT, OP_DRIFT_SCAN, OP_JOURNAL_TAIL];
/** Operations that change the host: refused offline with manager_unreachable. */
export const NODE_SENSITIVE_OPERATIONS: ReadonlySet<string> = new Set([OP_PLAN_EXECUTE]);

/** Where the node agent may write, unless the signed config says otherwise; units always live in UNIT_DIR. */
export const DEFAULT_MANAGED_ROOTS: readonly string[] = ['/etc/navin', '/opt/navin', '/var/lib/navin'];
export const UNIT_DIR = '/etc/systemd/system';
/** The agent's own unit: never a plan's to write, stop or remove. */
export const NODE_AGENT_UNIT = 'navin-node-agent.service';
export const NODE_AGENT_PACKAGE = 'navin-node-agent';
export const NODE_AGENT_IDENTITY_DIR = '/etc/navin-node-agent';
export const NODE_AGENT_STATE_DIR = '/var/lib/navin-node-agent';
/** Units a plan may manage: navin-<name>.service (or a template instance), but not the agent's own. */
export const MANAGED_UNIT = /^navin-[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(@[A-Za-z0-9_.-]{1,64})?\.service$/;
export const isManagedUnit = (unit: unknown): unit is string =>
  typeof unit === 'string' && MANAGED_UNIT.test(unit) && unit !== NODE_AGENT_UNIT;

/** The payload of the config the manager signs for one host's agent (config.json in its identity folder). */
export interface NodeAgentConfigBody extends AgentConfigCommon {
  /** Which agent this config is for: a cluster agent's config never starts a node agent, nor the reverse. */
  agent: 'node';
  host_id: string;
  host_name: string;
  /** For a host, the target is its host id. */
  target: string;
  managed_roots: string[];
  report_interval_s: number;
}

/** What the node agent reads of its host (systeminformation, systemctl) and reports. */
export interface HostFacts {
  hostname: string;
  os: { platform: string; distro: string; release: string; codename: string };
  kernel: string;
  /** Debian / Kubernetes names: amd64, arm64, … */
  architecture: string;
  cpu: { brand: string; cores: number; physical_cores: number };
  memory: { total_bytes: number; available_bytes: number };
  disks: { mount: string; fs: string; type: string; size_bytes: number; available_bytes: number }[];
  systemd: { version: string | null; system_state: string | null };
  /** TCP ports something listens on (any address), for the catalog's free ports. Absent from older agents. */
  listening_ports?: number[];
  /** The values of HOST_SYSCTL_KEYS this host has (a key it lacks is absent), for the catalog's kernel settings. */
  sysctl?: Record<string, string>;
  /** Which of HOST_TOOLS are commands on the agent's PATH, for the catalog's tools. */
  tools?: Record<string, boolean>;
  collected_at: string;
}

/** The kernel settings a node agent reads and reports: a catalog may require only these (catalog cross-checks). */
export const HOST_SYSCTL_KEYS = [
  'fs.file-max',
  'fs.inotify.max_user_watches',
  'net.core.somaxconn',
  'vm.max_map_count',
  'vm.swappiness',
] as const;
/** The commands a node agent looks for on its PATH and reports: a catalog may require only these. */
export const HOST_TOOLS = ['systemctl', 'mv', 'rm', 'cp', 'chown', 'tar', 'mkdir'] as const;

/** A file or unit the agent wrote for the manager, as recorded in its state. */
export interface ManagedEntry {
  sha256: string;
  size: number;
  command_id: string;
  written_at: string;
  /**
   * A private key a tls.csr made: sha256 and size are then those of its public key (SPKI DER), since nothing
   * derived from the private key's bytes leaves the host, and a drift scan compares the public key it finds.
   */
  private_key?: true;
}

/** A liveness check the agent runs on its own for one unit (set by a plan's liveness.watch). */
export interface LivenessWatch {
  check: { kind: string; params: Record<string, unknown> };
  interval_s: number;
  command_id: string;
  /** The watched unit is the host's metrics exporter: its figures are read from it with each report. */
  scrape?: MetricsScrape;
}

/** A Prometheus node exporter's metrics URL, with the CA that signed its certificate when it is https. */
export interface MetricsScrape {
  url: string;
  ca_file?: string;
}

export type DriftState = 'ok' | 'modified' | 'deleted' | 'replaced';

/** One managed file or unit as a drift scan found it. */
export interface DriftItem {
  /** The file's path, or /etc/systemd/system/<unit> for a unit. */
  path: string;
  kind: 'file' | 'unit';
  state: DriftState;
  expected_sha256: string;
  observed_sha256: string | null;
  /** The command that last wrote it. */
  command_id: string;
  /** What stands there instead (a symlink's target, …). */
  detail?: string;
}

/** Whether `i` is a drift item as the manager records it (an agent's answer is checked item by item). */
export function isDriftItem(i: unknown): i is DriftItem {
  if (!isPlainObject(i)) return false;
  const optionalString = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
  return (
    typeof i.path === 'string' &&
    (i.kind === 'file' || i.kind === 'unit') &&
    ['ok', 'modified', 'deleted', 'replaced'].includes(i.state as string) &&
    typeof i.expected_sha256 === 'string' &&
    (i.observed_sha256 === null || typeof i.observed_sha256 === 'string') &&
    typeof i.command_id === 'string' &&
    optionalString(i.detail)
  );
}

export interface DriftScanResult {
  scanned_at: string;
  items: DriftItem[];
}

/** A managed unit as systemd has it when the agent reports (systemctl show), whatever was last asked of it. */
export interface UnitObservation {
  /** loaded, not-found, … */
  load_state: string;
  /** active, inactive, failed, activating, deactivating, reloading */
  active_state: string;
  /** running, dead, exited, failed, auto-restart, … */
  sub_state: string;
  main_pid: number | null;
  /** When it last became active; null while it is not. */
  active_since: string | null;
  /** Restarts systemd made on its own (Restart=) since the unit was last started by hand or by a plan. */
  restarts: number | null;
  /** The unit's cgroup: memory now, and CPU time used since it started (a counter). Null when not accounted. */
  memory_bytes: number | null;
  cpu_ns: number | null;
}

/** One sample of the host's own figures, taken with each report. CPU figures are counters: rates come from two. */
export interface HostMetricsSample {
  at: string;
  /** node_exporter: scraped from the exporter a watched unit names; host: the agent's own reading of /proc. */
  source: 'node_exporter' | 'host';
  cpu: { total_s: number; idle_s: number; cpus: number } | null;
  memory: { total_bytes: number; available_bytes: number } | null;
  /** The root file system. */
  filesystem: { mount: string; size_bytes: number; available_bytes: number } | null;
  /** Why the exporter named by a watch was not the source (its scrape failed). */
  note?: string;
  /** The exporter reported no root file system (it skips overlays): the kernel's statfs stands in. */
  filesystem_from_kernel?: boolean;
}

export interface HostReportRequest {
  agent_version: string;
  facts: HostFacts;
  managed: { files: Record<string, ManagedEntry>; units: Record<string, ManagedEntry> };
  /** The latest outcome of each watched unit's liveness check. Absent from older agents. */
  liveness?: Record<string, CheckOutcome>;
  /** Each managed unit as systemd has it. Absent from older agents. */
  units?: Record<string, UnitObservation>;
  /** The host's figures now. Absent from older agents. */
  metrics?: HostMetricsSample;
}

export type { PlanProgressRequest };
