// The console API as the renderer sees it: request and response shapes shared by the Electron IPC bridge and
// the HTTPS transport of the headless manager. The renderer imports types from here and nothing from main/.

/** The inventory shapes are the wire contract's own (what the agent posts and the manager stores). */
export type { Inventory, NodeInventory } from '../main/wire/inventory';
/** A profile rule or a preflight check, as the manager evaluates it (reason and title in both languages). */
export type { CheckResult, CheckStatus } from '../main/core/preflight/check-types';
export type { Bilingual } from '../main/core/reports/report-types';
/** The install profiles: 'development' | 'standard' | 'banking-secure' | 'air-gapped' | 'hybrid'. */
export type { ProfileName } from '../main/core/profiles/profile-names';
import type { ProfileName } from '../main/core/profiles/profile-names';
/** A cluster's profile evaluated now, a recorded preflight run and a configuration backup set. */
export type { ProfileCatalogEntry, ProfileEvaluation } from '../main/core/profiles/profiles';
export type { SyslogTarget, SyslogTransport, SyslogProbeResult } from '../main/core/audit/syslog-sender';
export type { PreflightRun } from '../main/core/preflight/preflight';
export type { PreflightOutcome, PreflightTrigger } from '../main/core/store/lifecycle-tables';
export type { BackupFileView, BackupSetView } from '../main/core/backups/backups';
/** A four-eyes approval as the viewer sees it (`usable`: the viewer can spend it). */
export type { ApprovalView } from '../main/core/approvals/approvals';
export type { ApprovalState } from '../main/core/store/approvals-table';
/** What the gateway last saw of a cluster's agent. */
export type { AgentStatus } from '../main/core/clusters/agent-status';
export type { RegistrationResult } from '../main/core/clusters/registration';
export type { AuditQuery, AuditRow, ChainVerdict } from '../main/core/store/audit-log';
export type { CommandView } from '../main/core/commands/commands';
export type { CommandState } from '../main/core/store/commands-tables';
export type { PublicKeyInfo } from '../main/core/keys/keyring';
/** A signed acceptance report: the payload the manager signs, its lines, and the list's summary. */
export type { ReportBody, ReportLine, ReportSummary, SignedReport, Verdict } from '../main/core/reports/report-types';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** One call of the console API; the same object travels over IPC or becomes an HTTPS request. */
export interface ApiRequest {
  method: HttpMethod;
  /** Path with query string, e.g. `/api/v1/clusters?limit=10`. */
  path: string;
  body?: unknown;
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
}

/** Every failure of the API has this body and a stable `code` (see ApiErrorCode). */
export interface ApiErrorBody {
  error: { code: ApiErrorCode | string; message: string; field?: string; details?: unknown };
}

export type ApiErrorCode =
  | 'bad_request'
  | 'invalid_json'
  | 'invalid_field'
  | 'unauthenticated'
  | 'forbidden'
  | 'csrf_missing'
  | 'not_found'
  | 'conflict'
  | 'name_taken'
  | 'account_locked'
  | 'invalid_credentials'
  | 'setup_done'
  | 'setup_token_invalid'
  | 'ticket_invalid'
  | 'method_not_allowed'
  | 'body_too_large'
  | 'rate_limited'
  | 'token_expired'
  | 'token_revoked'
  | 'profile_blocked'
  | 'preflight_failed'
  | 'approval_required'
  | 'approval_not_found'
  | 'approval_not_approved'
  | 'approval_used'
  | 'approval_expired'
  | 'approval_wrong_user'
  | 'approval_wrong_target'
  | 'approval_self'
  | 'approval_decided'
  | 'approval_needs_session'
  | 'backup_modified'
  | 'desired_state_changed'
  | 'rollback_unavailable'
  | 'mfa_code_invalid'
  | 'mfa_token_invalid'
  | 'mfa_enrollment_required'
  | 'internal';

export type Role = 'viewer' | 'operator' | 'admin';

export interface User {
  id: string;
  name: string;
  role: Role;
  created_at: string;
  /** In the users list: whether the account has a TOTP second factor. */
  mfa_enrolled?: boolean;
}

/** `GET /api/v1/users/{name}/tokens`: an API token as listed (never its secret). */
export interface ApiToken {
  id: string;
  user: string;
  name: string | null;
  created_at: string;
  created_by: string;
  expires_at: string;
  revoked_at: string | null;
  revoked_by: string | null;
  state: 'active' | 'expired' | 'revoked';
}

/** `POST /api/v1/users/{name}/tokens`: the new token, with its secret shown this once. */
export interface NewApiToken extends ApiToken {
  token: string;
}

/** The body of `POST /api/v1/users/{name}/tokens`: a lifetime such as "30d" (default 90 days) and a label. */
export interface ApiTokenCreate {
  expires?: string;
  name?: string;
}

/** Whether the operator has a second factor, and whether the console's profiles require one for their role. */
export interface MfaStatus {
  enrolled: boolean;
  required: boolean;
}

/** `GET /api/v1/session` and `POST /api/v1/session`. */
export interface SessionInfo {
  user: User;
  csrf_token: string;
  expires_at: string;
  mfa?: MfaStatus;
}

/** `POST /api/v1/session` or `/session/ticket` when a second factor is due: send the code with this token. */
export interface MfaChallenge {
  mfa_required: true;
  mfa_token: string;
  expires_at: string;
}

/** `POST /api/v1/session/mfa`: a 6-digit TOTP code or a recovery code. */
export interface MfaLoginRequest {
  mfa_token: string;
  code: string;
}

export interface Health {
  status: 'ok';
  time: string;
}

export interface VersionInfo {
  name: 'navin-manager';
  version: string;
  api: 'v1';
  mode: 'desktop' | 'headless';
}

export type ClusterState = 'pending' | 'connected' | 'offline' | 'revoked';

export interface Cluster {
  id: string;
  name: string;
  description: string;
  tenant: string;
  state: ClusterState;
  profile?: ProfileName;
  fqdn?: string | null;
  address?: string | null;
  created_at: string;
  updated_at: string;
}

export interface ClusterCreate {
  name: string;
  description?: string;
  tenant?: string;
  profile?: ProfileName;
  fqdn?: string;
  address?: string;
}

export interface ClusterPatch {
  name?: string;
  description?: string;
  fqdn?: string | null;
  address?: string | null;
}

export interface ClusterList {
  items: Cluster[];
}

/** First run: creating the first admin with the one-time setup token printed by `navin-manager serve`. */
export interface SetupRequest {
  token: string;
  name: string;
  password: string;
}

export interface SetupStatus {
  needed: boolean;
}

/** `POST /api/v1/session/ticket`: the one-time login link's ticket. */
export interface TicketRequest {
  ticket: string;
}

export interface LoginRequest {
  name: string;
  password: string;
}

/** The bridge exposed by preload/ on `window.navin` in the desktop app. */
export interface NavinBridge {
  request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>>;
  /** Pushed events from the core (e.g. `cluster.changed`); returns an unsubscribe function. */
  onEvent(listener: (event: ApiEvent) => void): () => void;
}

export interface ApiEvent {
  type: string;
  data: unknown;
}
