// Shapes only the renderer uses (its own client's codes and states), and the API shapes preload/api.ts does not
// export yet (defined here from the console API's contract; to move to preload/api.ts when the lead adds them).
import type { CheckResult, Cluster, ProfileName, Role } from '../../../preload/api';

export type { SetupStatus, TicketRequest } from '../../../preload/api';

/** Error codes produced by the client itself, never by the server. */
export type ClientErrorCode = 'network_error' | 'bad_response' | 'bridge_error';

/** Connection state of the event stream (SSE in a browser, IPC in the desktop app). */
export type LiveState = 'connecting' | 'open' | 'reconnecting' | 'closed';

// --- clusters and their agent ---

/** What the gateway last saw of a cluster's agent. */
export interface AgentStatus {
  connected: boolean;
  last_seen: string | null;
  offline_since: string | null;
  leader_replica: string | null;
  agent_version: string | null;
  certificate_serial: string | null;
}

/** `GET /clusters/{id}`: the record, its derived state and its agent. */
export interface ClusterView extends Cluster {
  agent?: AgentStatus;
}

// --- inventory ---

export type { Inventory, NodeInventory } from '../../../preload/api';
import type { Inventory } from '../../../preload/api';

/** `GET /clusters/{id}/inventory` and `POST /clusters/{id}/inventory/refresh`. */
export interface InventorySnapshot {
  cluster_id: string;
  taken_at: string;
  source: 'import' | 'agent';
  inventory: Inventory;
}

// --- import and agent identity ---

/** `POST /clusters/{id}/kubernetes/registration`. */
export interface RegistrationRequest {
  kubeconfig: string;
  namespace?: string;
}

export interface RegistrationResult {
  cluster_id: string;
  server: string;
  namespace: string;
  kubernetes_version: string;
  inventory: Inventory;
  taken_at: string;
}

/** The failures of a registration, each explained in words with what to do. */
export type RegistrationErrorCode =
  | 'kubeconfig_invalid'
  | 'kubeconfig_no_token'
  | 'api_unreachable'
  | 'tls_untrusted'
  | 'token_refused'
  | 'permission_missing'
  | 'api_version_unsupported'
  | 'api_error';

/** `POST /clusters/{id}/kubernetes/agent`. */
export interface AgentIdentityRequest {
  gateway_url: string;
  server_name?: string;
  offline_after_s?: number;
}

export type IdentityFileName = 'config.json' | 'manager.pem' | 'tls.crt' | 'tls.key' | 'ca.crt';

export interface AgentIdentity {
  cluster_id: string;
  serial: string;
  not_after: string;
  revoked_serials: string[];
  /** The texts of the Secret's files; tls.key is handed out once and never retrievable again. */
  files: Record<IdentityFileName, string>;
  config: unknown;
  secret_command: string;
}

// --- components ---

export type ComponentKind = 'opa' | 'openfga' | 'etcd' | 'nats' | 'node-exporter';

export interface ComponentArtifact {
  name: string;
  image: string;
}

/** The spec of a ManagedComponent (platform.navin.ai). */
export interface ManagedComponentSpec {
  component: ComponentKind;
  version: string;
  replicas?: number;
  artifacts?: ComponentArtifact[];
  resources?: { cpu?: string; memory?: string };
  config?: Record<string, unknown>;
}

/** A ManagedComponent as the agent last found it in the cluster. */
export interface ObservedComponent {
  spec: unknown;
  status: unknown;
}

/** `GET /clusters/{id}/components`: the desired state, and what the agent last reported (null: nothing yet). */
export interface ComponentsView {
  cluster_id: string;
  generation: number;
  desired: Record<string, ManagedComponentSpec>;
  observed?: Record<string, ObservedComponent> | null;
  observed_at?: string | null;
}

export interface ComponentApplyRequest {
  name: string;
  spec: ManagedComponentSpec;
}

// --- commands ---

export type CommandOp = 'managedcomponent.apply' | 'managedcomponent.delete' | 'inventory.report';
export type CommandState = 'queued' | 'delivered' | 'succeeded' | 'failed' | 'rejected';
export type RejectionCode =
  | 'malformed'
  | 'key_unknown'
  | 'signature_invalid'
  | 'type_mismatch'
  | 'target_mismatch'
  | 'tenant_mismatch'
  | 'not_yet_valid'
  | 'expired'
  | 'nonce_replayed'
  | 'manager_unreachable'
  | 'profile_blocked'
  | 'desired_state_invalid'
  | 'op_unknown'
  | 'execution_failed';

export interface CommandReceipt {
  received_at: string;
  status: string;
  code: string | null;
  replica: string | null;
}

export interface CommandView {
  id: string;
  cluster_id: string;
  op: CommandOp | string;
  args: unknown;
  state: CommandState;
  code: RejectionCode | string | null;
  result: unknown;
  requested_by: string;
  created_at: string;
  not_after: string;
  delivered_at: string | null;
  deliveries: number;
  completed_at: string | null;
  receipts: CommandReceipt[];
}

export interface CommandList {
  items: CommandView[];
}

// --- audit ---

export interface AuditRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  cluster_id: string | null;
  target: string | null;
  details: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

export interface AuditQuery {
  actor?: string;
  cluster_id?: string;
  action?: string;
  limit?: number;
  before_seq?: number;
}

export type AuditVerdict = { ok: true; rows: number } | { ok: false; rows: number; first_broken_seq: number; reason: string };

// --- keys, users ---

export interface PublicKeyInfo {
  key_id: string;
  public_key_pem: string;
  created_at: string;
  retired_at: string | null;
  active: boolean;
}

export interface UserCreate {
  name: string;
  role: Role;
  password: string;
}

// --- reports ---

export type Verdict = 'PASS' | 'FAIL' | 'BLOCKED';

export interface ReportSummary {
  id: string;
  cluster_id: string;
  cluster_name?: string;
  created_at: string;
  verdict: Verdict;
  key_id: string;
}

/** A text of a report in both languages (the JSON keeps both; the console shows the operator's). */
export type ReportText = string | { en: string; fr: string };

export interface ReportLine {
  id: string;
  title: ReportText;
  status: Verdict;
  evidence?: Record<string, unknown>;
  ran_at?: string;
}

export interface ReportPayload {
  type: 'report';
  v: number;
  key_id: string;
  report_id: string;
  cluster_id: string;
  cluster_name?: string;
  created_at: string;
  verdict: Verdict;
  lines: ReportLine[];
  /** sha256 (hex) of the signing public key; key_id is its first 16 digits. */
  key_fingerprint?: string;
  [extra: string]: unknown;
}

/** A signed report document: `{payload, signature}`. */
export interface SignedReport {
  payload: ReportPayload;
  signature: string;
}

// --- profiles, preflight checks, backups ---

export type { Bilingual, CheckResult, CheckStatus, ProfileName } from '../../../preload/api';

export const PROFILE_NAMES: readonly ProfileName[] = ['development', 'standard', 'banking-secure', 'air-gapped', 'hybrid'];

/** `GET|PUT /clusters/{id}/profile`: each rule evaluated now on the real state. */
export interface ProfileView {
  cluster_id: string;
  profile: ProfileName;
  status: 'compliant' | 'blocked';
  rules: CheckResult[];
  four_eyes: boolean;
  four_eyes_actions: string[];
  evaluated_at: string;
}

export type PreflightOutcome = 'pass' | 'warn' | 'fail';

export interface PreflightRun {
  id: string;
  cluster_id: string;
  trigger: string;
  target: string | null;
  started_at: string;
  finished_at: string;
  outcome: PreflightOutcome;
  checks: CheckResult[];
  run_by: string;
}

export interface BackupFile {
  name: string;
  file: string;
  sha256: string;
  size: number;
}

export interface BackupSet {
  id: string;
  created_at: string;
  created_by: string;
  files: BackupFile[];
}

// --- four-eyes approvals ---

export const APPROVAL_ACTIONS = ['stop', 'restart', 'reinstall', 'uninstall', 'upgrade', 'rollback', 'restore', 'configuration'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];
export type ApprovalState = 'pending' | 'approved' | 'rejected' | 'used';

export interface Approval {
  id: string;
  cluster_id: string;
  action: ApprovalAction | string;
  service: string;
  reason: string;
  state: ApprovalState;
  requested_by: string;
  requested_by_name: string;
  requested_at: string;
  decided_by_name: string | null;
  decided_at: string | null;
  decision_note: string | null;
  expires_at: string | null;
  used_at: string | null;
  used_by_command: string | null;
  /** Approved, unused, unexpired and requested by the operator asking: it can launch its operation. */
  usable: boolean;
}

export interface ApprovalRequest {
  cluster_id: string;
  action: ApprovalAction;
  service: string;
  reason: string;
}

export interface ApprovalQuery {
  cluster_id?: string;
  state?: ApprovalState;
}

/** The operations of a component besides apply and delete (POST /clusters/{id}/components/{name}/actions). */
export const COMPONENT_ACTIONS = ['stop', 'start', 'restart', 'rollback'] as const;
export type ComponentAction = (typeof COMPONENT_ACTIONS)[number];

// --- second factor ---

/** `POST /session/mfa/enrolment`: the new TOTP secret, its otpauth URI and the server-made QR code (SVG). */
export interface MfaEnrolment {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
  account: string;
}

export interface MfaRecoveryCodes {
  recovery_codes: string[];
}

// --- console settings ---

export type SyslogTransport = 'tcp' | 'udp';

export interface SyslogTarget {
  host: string;
  port: number;
  transport: SyslogTransport;
}

/** `GET /settings/syslog`: the configured target (null: none) and what the forwarder reports. */
export interface SyslogSettings {
  target: SyslogTarget | null;
  forwarder: unknown;
}

export interface SyslogTestResult {
  reachable: boolean;
  message: string;
  [extra: string]: unknown;
}

export interface DnsSettings {
  servers: string[];
}

export interface MirrorSettings {
  url: string | null;
  ca_pem: string | null;
}
