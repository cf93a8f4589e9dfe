// The renderer's names for the API shapes (all from the contract, through preload/api.ts) and the few shapes
// only the renderer has: its client's own error codes, the state of the event stream, the acts it offers.
import { APPROVABLE, type ApprovableAction } from '../../../preload/api';

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
  ComponentKind,
} from '../../../preload/api';

/** Error codes produced by the client itself, never by the server. */
export type ClientErrorCode = 'network_error' | 'bad_response' | 'bridge_error';

/** Connection state of the event stream (SSE in a browser, IPC in the desktop app). */
export type LiveState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** The four-eyes actions the console can launch: the contract's approvable acts less reinstall, which is no
 * operation yet. */
export type ApprovalAction = Exclude<ApprovableAction, 'reinstall'>;
export const APPROVAL_ACTIONS: readonly ApprovalAction[] = APPROVABLE.filter((a): a is ApprovalAction => a !== 'reinstall');
