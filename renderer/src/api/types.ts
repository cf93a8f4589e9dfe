// Shapes only the renderer uses (its own client's codes and states), the API shapes preload/api.ts does not
// export yet (defined here from the console API's contract), and the renderer's names for those it does.
import type { AgentStatus, ApprovalState, Cluster, ProfileCatalogEntry, ProfileName, Role, SyslogTarget } from '../../../preload/api';

export type { SetupStatus, TicketRequest } from '../../../preload/api';

/** Error codes produced by the client itself, never by the server. */
export type ClientErrorCode = 'network_error' | 'bad_response' | 'bridge_error';

/** Connection state of the event stream (SSE in a browser, IPC in the desktop app). */
export type LiveState = 'connecting' | 'open' | 'reconnecting' | 'closed';

// --- clusters and their agent ---

export type { AgentStatus } from '../../../preload/api';

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

export type { RegistrationResult } from '../../../preload/api';

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
export type { CommandState, CommandView } from '../../../preload/api';
import type { CommandView } from '../../../preload/api';
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

export type CommandReceipt = CommandView['receipts'][number];

export interface CommandList {
  items: CommandView[];
}

// --- audit ---

export type { AuditQuery, AuditRow, ChainVerdict as AuditVerdict } from '../../../preload/api';

// --- keys, users ---

export type { PublicKeyInfo } from '../../../preload/api';

export interface UserCreate {
  name: string;
  role: Role;
  password: string;
}

// --- reports ---

export type { ReportBody as ReportPayload, ReportLine, ReportSummary, SignedReport, Verdict } from '../../../preload/api';

// --- profiles, preflight checks, backups ---

export type { Bilingual, CheckResult, CheckStatus, ProfileName } from '../../../preload/api';
export type {
  ApprovalState,
  ApprovalView as Approval,
  BackupFileView as BackupFile,
  BackupSetView as BackupSet,
  PreflightOutcome,
  PreflightRun,
  ProfileEvaluation as ProfileView,
} from '../../../preload/api';

export const PROFILE_NAMES: readonly ProfileName[] = ['development', 'standard', 'banking-secure', 'air-gapped', 'hybrid'];

/** The four-eyes actions the console can launch (the spec's list less reinstall, which is no operation yet). */
export const APPROVAL_ACTIONS = ['stop', 'restart', 'uninstall', 'upgrade', 'rollback', 'restore', 'configuration'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

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

export type { SyslogTarget, SyslogTransport } from '../../../preload/api';

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

/** `GET|PUT /settings/endpoint-trust`: the PEM bundle of CAs trusted for the services' TLS endpoints ('' : none). */
export interface EndpointTrust {
  ca_pem: string;
}

/** `GET /profiles`: each install profile with the rules it enforces, titled in both languages. */
export type { ProfileCatalogEntry } from '../../../preload/api';

export interface ProfileCatalog {
  items: ProfileCatalogEntry[];
}
