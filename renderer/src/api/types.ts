// The renderer's names for the API shapes (all from the contract, through preload/api.ts) and the few shapes
// only the renderer has: its client's own error codes, the state of the event stream, its form constants.
import type { ProfileName } from '../../../preload/api';

export type {
  AgentIdentity,
  AgentIdentityRequest,
  AgentStatus,
  ApprovalQuery,
  ApprovalRequest,
  ApprovalState,
  AuditQuery,
  AuditRow,
  Bilingual,
  ChainVerdict as AuditVerdict,
  CheckResult,
  CheckStatus,
  ClusterView,
  CommandList,
  CommandReceipt,
  CommandState,
  CommandView,
  ComponentsView,
  DnsSettings,
  EndpointTrust,
  IdentityFileName,
  Inventory,
  InventorySnapshot,
  ManagedComponentSpec,
  MfaEnrolment,
  MfaRecoveryCodes,
  MirrorSettings,
  NodeInventory,
  ObservedComponent,
  PreflightOutcome,
  PreflightRun,
  ProfileCatalog,
  ProfileCatalogEntry,
  ProfileName,
  PublicKeyInfo,
  RegistrationRequest,
  RegistrationResult,
  ReportBody as ReportPayload,
  ReportLine,
  ReportSummary,
  SetupStatus,
  SignedReport,
  SyslogProbeResult as SyslogTestResult,
  SyslogSettings,
  SyslogTarget,
  SyslogTransport,
  TicketRequest,
  UserCreate,
  Verdict,
  Approval,
  BackupFile,
  BackupSet,
  ProfileEvaluation as ProfileView,
  ComponentAction,
} from '../../../preload/api';

/** Error codes produced by the client itself, never by the server. */
export type ClientErrorCode = 'network_error' | 'bad_response' | 'bridge_error';

/** Connection state of the event stream (SSE in a browser, IPC in the desktop app). */
export type LiveState = 'connecting' | 'open' | 'reconnecting' | 'closed';

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

/** The services the console's forms offer (the catalog of the manager accepts these). */
export type ComponentKind = 'opa' | 'openfga' | 'etcd' | 'nats' | 'node-exporter';

export const PROFILE_NAMES: readonly ProfileName[] = ['development', 'standard', 'banking-secure', 'air-gapped', 'hybrid'];

/** The four-eyes actions the console can launch (the spec's list less reinstall, which is no operation yet). */
export const APPROVAL_ACTIONS = [
  'stop',
  'restart',
  'uninstall',
  'upgrade',
  'rollback',
  'restore',
  'configuration',
  'backup',
  'delete_cluster',
  'delete_host',
  'reissue_identity',
  'create_admin',
  'reset_admin_mfa',
  'trust_release_key',
] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** The operations of a component besides apply and delete (POST /clusters/{id}/components/{name}/actions). */
export const COMPONENT_ACTIONS = ['stop', 'start', 'restart', 'rollback'] as const;
