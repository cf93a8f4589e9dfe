// The one console API client of the renderer. Two transports behind the same calls:
// - the desktop app: `window.navin` (preload bridge, IPC), no cookie and no CSRF header;
// - a browser against `navin-manager serve`: fetch on the same origin, cookie session, `X-CSRF-Token` on every
//   state-changing request, and Server-Sent Events for pushed events.
// Stores call this client; components never do.
import type {
  ApiEvent,
  ApiRequest,
  ApiResponse,
  Cluster,
  ClusterCreate,
  ClusterList,
  ClusterPatch,
  Health,
  HttpMethod,
  LoginRequest,
  MfaChallenge,
  NavinBridge,
  SessionInfo,
  SetupRequest,
  VersionInfo,
} from '../../../preload/api';
import type {
  AgentIdentity,
  AgentIdentityRequest,
  AgentStatus,
  Approval,
  ApprovalQuery,
  ApprovalRequest,
  AuditQuery,
  BackupSet,
  ComponentAction,
  DnsSettings,
  EndpointTrust,
  MfaEnrolment,
  MfaRecoveryCodes,
  MirrorSettings,
  PreflightRun,
  ProfileCatalog,
  ProfileName,
  ProfileView,
  SyslogSettings,
  SyslogTarget,
  SyslogTestResult,
  AuditRow,
  AuditVerdict,
  ClientErrorCode,
  ClusterView,
  CommandList,
  CommandView,
  ComponentsView,
  InventorySnapshot,
  LiveState,
  ManagedComponentSpec,
  PublicKeyInfo,
  RegistrationRequest,
  RegistrationResult,
  ReportSummary,
  SetupStatus,
  SignedReport,
  TicketRequest,
  UserCreate,
} from './types';
import type { ApiToken, ApiTokenCreate, NewApiToken, User } from '../../../preload/api';

export const API_PREFIX = '/api/v1';
export const CSRF_HEADER = 'X-CSRF-Token';

/** A failed call: the server's stable error code, the HTTP status (0 when no response), the offending field. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly field: string | undefined;
  readonly details: unknown;

  constructor(init: { code: string; status: number; message: string; field?: string; details?: unknown }) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.status = init.status;
    this.field = init.field;
    this.details = init.details;
  }

  /** Builds the error of a response with status >= 400 from its body (an ApiErrorBody, or anything else). */
  static fromResponse(status: number, body: unknown): ApiError {
    if (isApiErrorBody(body)) {
      const { code, message, field, details } = body.error;
      return new ApiError({ code, status, message, field, details });
    }
    return new ApiError({
      code: status === 401 ? 'unauthenticated' : status >= 500 ? 'internal' : 'bad_response',
      status,
      message: typeof body === 'string' && body.length > 0 ? body.slice(0, 500) : `HTTP ${status}`,
    });
  }

  static client(code: ClientErrorCode, message: string): ApiError {
    return new ApiError({ code, status: 0, message });
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** Turns anything thrown into an ApiError (stores keep only ApiErrors). */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (isApiErrorBody(e)) return ApiError.fromResponse(0, e);
  const message = e instanceof Error ? e.message : String(e);
  return ApiError.client('bridge_error', message);
}

export function isApiErrorBody(x: unknown): x is { error: { code: string; message: string; field?: string; details?: unknown } } {
  if (typeof x !== 'object' || x === null || !('error' in x)) return false;
  const err = (x as { error: unknown }).error;
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    typeof (err as { message?: unknown }).message === 'string'
  );
}

/** What a call expects back: JSON (every route but a few) or text. */
export type Accept = 'json' | 'text';

/** How requests travel. `send` resolves with any HTTP status; it rejects only when no response came back. */
export interface Transport {
  readonly kind: 'bridge' | 'http';
  /** `accept: 'text'`: a 2xx body is returned as text (YAML, PEM, HTML routes). */
  send<T>(req: ApiRequest, csrfToken: string | null, accept?: Accept): Promise<ApiResponse<T>>;
  subscribe(listener: (event: ApiEvent) => void, onState: (state: LiveState) => void): () => void;
}

export function bridgeTransport(bridge: NavinBridge): Transport {
  return {
    kind: 'bridge',
    async send<T>(req: ApiRequest): Promise<ApiResponse<T>> {
      try {
        return await bridge.request<T>(req);
      } catch (e) {
        throw toApiError(e);
      }
    },
    subscribe(listener, onState) {
      const off = bridge.onEvent(listener);
      onState('open');
      return () => {
        off();
        onState('closed');
      };
    },
  };
}

/** The part of EventSource the client uses (lets tests pass a fake). */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

export interface HttpTransportOptions {
  /** Origin prefix; '' (same origin) in the browser. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Opens the event stream; defaults to the browser's EventSource, with credentials. */
  eventSource?: EventSourceFactory | null;
  /** First reconnection delay of the event stream after the browser gave up; doubles up to 30 s. */
  reconnectDelayMs?: number;
}

const EVENT_SOURCE_CLOSED = 2;

export function httpTransport(options: HttpTransportOptions = {}): Transport {
  const baseUrl = options.baseUrl ?? '';
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const openEventSource: EventSourceFactory | null =
    options.eventSource !== undefined
      ? options.eventSource
      : typeof globalThis.EventSource === 'function'
        ? (url) => new globalThis.EventSource(url, { withCredentials: true }) as unknown as EventSourceLike
        : null;
  const firstDelay = options.reconnectDelayMs ?? 1000;

  return {
    kind: 'http',
    async send<T>(req: ApiRequest, csrfToken: string | null, accept: Accept = 'json'): Promise<ApiResponse<T>> {
      const headers: Record<string, string> = { Accept: accept === 'text' ? '*/*' : 'application/json' };
      let body: string | undefined;
      if (req.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(req.body);
      }
      if (isStateChanging(req.method) && csrfToken) headers[CSRF_HEADER] = csrfToken;
      let res: Response;
      try {
        res = await fetchImpl(baseUrl + req.path, {
          method: req.method,
          headers,
          body,
          credentials: 'same-origin',
          cache: 'no-store',
          redirect: 'error',
        });
      } catch (e) {
        throw ApiError.client('network_error', e instanceof Error ? e.message : String(e));
      }
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        throw ApiError.client('network_error', e instanceof Error ? e.message : String(e));
      }
      let parsed: unknown = undefined;
      // YAML, PEM and HTML answers (import RBAC, manifests, manager.pem, report HTML) come back as text.
      if (accept === 'text' && res.status < 400) {
        parsed = text;
      } else if (text.length > 0) {
        try {
          parsed = JSON.parse(text);
        } catch {
          if (res.status < 400) throw ApiError.client('bad_response', `Response to ${req.method} ${req.path} is not JSON`);
          parsed = text;
        }
      }
      return { status: res.status, body: parsed as T };
    },
    subscribe(listener, onState) {
      if (!openEventSource) {
        onState('closed');
        return () => undefined;
      }
      let source: EventSourceLike | null = null;
      let timer: ReturnType<typeof setTimeout> | null = null;
      let stopped = false;
      let attempt = 0;
      const open = (): void => {
        timer = null;
        if (stopped) return;
        onState(attempt === 0 ? 'connecting' : 'reconnecting');
        const es = openEventSource(`${baseUrl}${API_PREFIX}/events`);
        source = es;
        es.onopen = () => {
          attempt = 0;
          onState('open');
        };
        es.onmessage = (m) => {
          const event = parseEvent(m.data);
          if (event) listener(event);
        };
        es.onerror = () => {
          if (stopped) return;
          // The browser retries by itself unless it closed the stream (e.g. 401 or a non-SSE response).
          if (es.readyState !== EVENT_SOURCE_CLOSED) {
            onState('reconnecting');
            return;
          }
          es.close();
          const delay = Math.min(30_000, firstDelay * 2 ** attempt);
          attempt += 1;
          onState('reconnecting');
          timer = setTimeout(open, delay);
        };
      };
      open();
      return () => {
        stopped = true;
        if (timer) clearTimeout(timer);
        source?.close();
        onState('closed');
      };
    },
  };
}

function isStateChanging(method: HttpMethod): boolean {
  return method !== 'GET';
}

/** An SSE `data:` payload → ApiEvent, or null when it is not one (comments and keep-alives are dropped). */
export function parseEvent(data: string): ApiEvent | null {
  try {
    const v: unknown = JSON.parse(data);
    if (typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string') {
      const o = v as { type: string; data?: unknown };
      return { type: o.type, data: o.data ?? null };
    }
  } catch {
    // not JSON: ignore
  }
  return null;
}

export class ApiClient {
  private csrfToken: string | null = null;
  private readonly unauthenticatedListeners = new Set<(error: ApiError) => void>();
  private readonly codeListeners = new Map<string, Set<(error: ApiError) => void>>();
  private readonly eventListeners = new Set<(event: ApiEvent) => void>();
  private readonly liveListeners = new Set<(state: LiveState) => void>();
  private stopEvents: (() => void) | null = null;
  private live: LiveState = 'closed';

  constructor(readonly transport: Transport) {}

  get kind(): Transport['kind'] {
    return this.transport.kind;
  }

  getCsrfToken(): string | null {
    return this.csrfToken;
  }

  setCsrfToken(token: string | null): void {
    this.csrfToken = token;
  }

  /** Called with the error of every 401 `unauthenticated` answer (the session store signs out on it). */
  onUnauthenticated(listener: (error: ApiError) => void): () => void {
    this.unauthenticatedListeners.add(listener);
    return () => this.unauthenticatedListeners.delete(listener);
  }

  /** Called with every error answer of this code (e.g. `mfa_enrollment_required`, whatever the call). */
  onErrorCode(code: string, listener: (error: ApiError) => void): () => void {
    let set = this.codeListeners.get(code);
    if (!set) {
      set = new Set();
      this.codeListeners.set(code, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** The raw call: resolves with the body of a 2xx answer, rejects with an ApiError otherwise. */
  async request<T>(method: HttpMethod, path: string, body?: unknown, accept: Accept = 'json'): Promise<T> {
    const req: ApiRequest = body === undefined ? { method, path } : { method, path, body };
    const res = await this.transport.send<T>(req, this.csrfToken, accept);
    if (res.status >= 200 && res.status < 300) return res.body;
    const error = ApiError.fromResponse(res.status, res.body);
    if (error.status === 401 && error.code === 'unauthenticated') {
      for (const l of [...this.unauthenticatedListeners]) l(error);
    }
    for (const l of [...(this.codeListeners.get(error.code) ?? [])]) l(error);
    throw error;
  }

  // --- system ---
  health(): Promise<Health> {
    return this.request('GET', `${API_PREFIX}/health`);
  }
  version(): Promise<VersionInfo> {
    return this.request('GET', `${API_PREFIX}/version`);
  }

  // --- session ---
  async getSession(): Promise<SessionInfo> {
    return this.keepSession(await this.request<SessionInfo>('GET', `${API_PREFIX}/session`));
  }
  /** A session, or the second-factor challenge when the account has (or must have) one. */
  async login(req: LoginRequest): Promise<SessionInfo | MfaChallenge> {
    return this.keepSessionOrChallenge(await this.request<SessionInfo | MfaChallenge>('POST', `${API_PREFIX}/session`, req));
  }
  async exchangeTicket(ticket: string): Promise<SessionInfo | MfaChallenge> {
    const body: TicketRequest = { ticket };
    return this.keepSessionOrChallenge(await this.request<SessionInfo | MfaChallenge>('POST', `${API_PREFIX}/session/ticket`, body));
  }
  /** The second step of a sign-in: the TOTP code (or a recovery code) for the challenge's token. */
  async loginMfa(mfaToken: string, code: string): Promise<SessionInfo> {
    return this.keepSession(await this.request<SessionInfo>('POST', `${API_PREFIX}/session/mfa`, { mfa_token: mfaToken, code }));
  }
  startMfaEnrolment(): Promise<MfaEnrolment> {
    return this.request('POST', `${API_PREFIX}/session/mfa/enrolment`);
  }
  confirmMfaEnrolment(code: string): Promise<MfaRecoveryCodes> {
    return this.request('POST', `${API_PREFIX}/session/mfa/enrolment/confirm`, { code });
  }
  async logout(): Promise<void> {
    try {
      await this.request<void>('DELETE', `${API_PREFIX}/session`);
    } finally {
      this.csrfToken = null;
    }
  }
  setupStatus(): Promise<SetupStatus> {
    return this.request('GET', `${API_PREFIX}/setup`);
  }
  async setup(req: SetupRequest): Promise<SessionInfo> {
    return this.keepSession(await this.request<SessionInfo>('POST', `${API_PREFIX}/setup`, req));
  }

  // --- clusters ---
  listClusters(): Promise<ClusterList> {
    return this.request('GET', `${API_PREFIX}/clusters`);
  }
  createCluster(input: ClusterCreate): Promise<Cluster> {
    return this.request('POST', `${API_PREFIX}/clusters`, input);
  }
  getCluster(id: string): Promise<Cluster> {
    return this.request('GET', `${API_PREFIX}/clusters/${encodeURIComponent(id)}`);
  }
  updateCluster(id: string, patch: ClusterPatch): Promise<Cluster> {
    return this.request('PATCH', `${API_PREFIX}/clusters/${encodeURIComponent(id)}`, patch);
  }
  async deleteCluster(id: string): Promise<void> {
    await this.request<void>('DELETE', `${API_PREFIX}/clusters/${encodeURIComponent(id)}`);
  }

  /** A route answering text (YAML, PEM, HTML): resolves with the text, rejects with an ApiError otherwise. */
  async requestText(method: HttpMethod, path: string, body?: unknown): Promise<string> {
    const text = await this.request<unknown>(method, path, body, 'text');
    if (typeof text !== 'string') throw ApiError.client('bad_response', `Response to ${method} ${path} is not text`);
    return text;
  }

  getClusterView(id: string): Promise<ClusterView> {
    return this.request('GET', `${clusterPath(id)}`);
  }
  agentStatus(id: string): Promise<AgentStatus> {
    return this.request('GET', `${clusterPath(id)}/agent`);
  }

  // --- import path and agent identity ---
  importRbac(id: string, namespace: string): Promise<string> {
    return this.requestText('GET', `${clusterPath(id)}/kubernetes/import-rbac?namespace=${encodeURIComponent(namespace)}`);
  }
  register(id: string, req: RegistrationRequest): Promise<RegistrationResult> {
    return this.request('POST', `${clusterPath(id)}/kubernetes/registration`, req);
  }
  getInventory(id: string): Promise<InventorySnapshot> {
    return this.request('GET', `${clusterPath(id)}/inventory`);
  }
  refreshInventory(id: string): Promise<InventorySnapshot> {
    return this.request('POST', `${clusterPath(id)}/inventory/refresh`);
  }
  requestInventoryReport(id: string): Promise<CommandView> {
    return this.request('POST', `${clusterPath(id)}/inventory/report`);
  }
  issueAgentIdentity(id: string, req: AgentIdentityRequest): Promise<AgentIdentity> {
    return this.request('POST', `${clusterPath(id)}/kubernetes/agent`, req);
  }
  agentManifests(id: string, image: string): Promise<string> {
    return this.requestText('GET', `${clusterPath(id)}/kubernetes/agent/manifests?image=${encodeURIComponent(image)}`);
  }

  // --- components and commands ---
  listComponents(id: string): Promise<ComponentsView> {
    return this.request('GET', `${clusterPath(id)}/components`);
  }
  applyComponent(id: string, name: string, spec: ManagedComponentSpec, approvalId?: string): Promise<CommandView> {
    return this.request('POST', `${clusterPath(id)}/components`, approvalId ? { name, spec, approval_id: approvalId } : { name, spec });
  }
  deleteComponent(id: string, name: string, approvalId?: string): Promise<CommandView> {
    return this.request('DELETE', `${clusterPath(id)}/components/${encodeURIComponent(name)}${queryString({ approval_id: approvalId })}`);
  }
  componentAction(id: string, name: string, action: ComponentAction, approvalId?: string): Promise<CommandView> {
    return this.request(
      'POST',
      `${clusterPath(id)}/components/${encodeURIComponent(name)}/actions`,
      approvalId ? { action, approval_id: approvalId } : { action },
    );
  }

  // --- profile, preflight checks, backups ---
  getProfile(id: string): Promise<ProfileView> {
    return this.request('GET', `${clusterPath(id)}/profile`);
  }
  listProfiles(): Promise<ProfileCatalog> {
    return this.request('GET', `${API_PREFIX}/profiles`);
  }
  /** Leaving a four-eyes profile needs an approval (action configuration, service "profile"). */
  setProfile(id: string, profile: ProfileName, approvalId?: string): Promise<ProfileView> {
    return this.request('PUT', `${clusterPath(id)}/profile`, approvalId ? { profile, approval_id: approvalId } : { profile });
  }
  latestPreflight(id: string): Promise<PreflightRun> {
    return this.request('GET', `${clusterPath(id)}/preflight`);
  }
  runPreflight(id: string): Promise<PreflightRun> {
    return this.request('POST', `${clusterPath(id)}/preflight`);
  }
  listBackups(id: string): Promise<{ items: BackupSet[] }> {
    return this.request('GET', `${clusterPath(id)}/backups`);
  }
  createBackup(id: string): Promise<BackupSet> {
    return this.request('POST', `${clusterPath(id)}/backups`);
  }
  /** Re-applies one component's spec from a backup set (its files re-hashed first by the manager). */
  restoreBackup(id: string, setId: string, service: string, approvalId?: string): Promise<CommandView> {
    return this.request(
      'POST',
      `${clusterPath(id)}/backups/${encodeURIComponent(setId)}/restore`,
      approvalId ? { service, approval_id: approvalId } : { service },
    );
  }

  // --- four-eyes approvals ---
  listApprovals(query: ApprovalQuery = {}): Promise<{ items: Approval[] }> {
    return this.request('GET', `${API_PREFIX}/approvals${queryString({ ...query })}`);
  }
  requestApproval(input: ApprovalRequest): Promise<Approval> {
    return this.request('POST', `${API_PREFIX}/approvals`, input);
  }
  decideApproval(id: string, decision: 'approve' | 'reject', note?: string): Promise<Approval> {
    return this.request('POST', `${API_PREFIX}/approvals/${encodeURIComponent(id)}/${decision}`, note ? { note } : {});
  }

  // --- console settings ---
  getSyslog(): Promise<SyslogSettings> {
    return this.request('GET', `${API_PREFIX}/settings/syslog`);
  }
  setSyslog(target: SyslogTarget): Promise<SyslogSettings> {
    return this.request('PUT', `${API_PREFIX}/settings/syslog`, target);
  }
  async clearSyslog(): Promise<void> {
    await this.request<unknown>('DELETE', `${API_PREFIX}/settings/syslog`);
  }
  testSyslog(): Promise<SyslogTestResult> {
    return this.request('POST', `${API_PREFIX}/settings/syslog/test`);
  }
  getDns(): Promise<DnsSettings> {
    return this.request('GET', `${API_PREFIX}/settings/dns`);
  }
  setDns(servers: string[]): Promise<DnsSettings> {
    return this.request('PUT', `${API_PREFIX}/settings/dns`, { servers });
  }
  getMirror(): Promise<MirrorSettings> {
    return this.request('GET', `${API_PREFIX}/settings/mirror`);
  }
  setMirror(input: { url: string; ca_pem: string | null }): Promise<MirrorSettings> {
    return this.request('PUT', `${API_PREFIX}/settings/mirror`, input);
  }
  getEndpointTrust(): Promise<EndpointTrust> {
    return this.request('GET', `${API_PREFIX}/settings/endpoint-trust`);
  }
  /** An empty bundle clears the list. */
  setEndpointTrust(caPem: string): Promise<EndpointTrust> {
    return this.request('PUT', `${API_PREFIX}/settings/endpoint-trust`, { ca_pem: caPem });
  }
  listCommands(query: { cluster_id?: string; limit?: number } = {}): Promise<CommandList> {
    return this.request('GET', `${API_PREFIX}/commands${queryString(query)}`);
  }
  getCommand(id: string): Promise<CommandView> {
    return this.request('GET', `${API_PREFIX}/commands/${encodeURIComponent(id)}`);
  }

  // --- audit, keys, users ---
  listAudit(query: AuditQuery = {}): Promise<{ items: AuditRow[] }> {
    return this.request('GET', `${API_PREFIX}/audit${queryString(query)}`);
  }
  verifyAudit(): Promise<AuditVerdict> {
    return this.request('GET', `${API_PREFIX}/audit/verify`);
  }
  listKeys(): Promise<{ items: PublicKeyInfo[] }> {
    return this.request('GET', `${API_PREFIX}/keys`);
  }
  managerPem(): Promise<string> {
    return this.requestText('GET', `${API_PREFIX}/keys/manager.pem`);
  }
  listUsers(): Promise<{ items: User[] }> {
    return this.request('GET', `${API_PREFIX}/users`);
  }
  createUser(input: UserCreate): Promise<User> {
    return this.request('POST', `${API_PREFIX}/users`, input);
  }
  async resetUserMfa(name: string): Promise<void> {
    await this.request<unknown>('DELETE', `${API_PREFIX}/users/${encodeURIComponent(name)}/mfa`);
  }
  listUserTokens(name: string): Promise<{ items: ApiToken[] }> {
    return this.request('GET', `${API_PREFIX}/users/${encodeURIComponent(name)}/tokens`);
  }
  createUserToken(name: string, input: ApiTokenCreate): Promise<NewApiToken> {
    return this.request('POST', `${API_PREFIX}/users/${encodeURIComponent(name)}/tokens`, input);
  }
  revokeUserToken(name: string, id: string): Promise<ApiToken> {
    return this.request('DELETE', `${API_PREFIX}/users/${encodeURIComponent(name)}/tokens/${encodeURIComponent(id)}`);
  }

  // --- acceptance reports ---
  runAcceptance(clusterId: string): Promise<SignedReport> {
    return this.request('POST', `${clusterPath(clusterId)}/acceptance`);
  }
  listReports(clusterId?: string): Promise<{ items: ReportSummary[] }> {
    return this.request('GET', `${API_PREFIX}/reports${queryString({ cluster_id: clusterId })}`);
  }
  getReport(id: string): Promise<SignedReport> {
    return this.request('GET', `${API_PREFIX}/reports/${encodeURIComponent(id)}`);
  }
  reportHtml(id: string, lang: 'en' | 'fr'): Promise<string> {
    return this.requestText('GET', reportHtmlPath(id, lang));
  }

  // --- events ---
  /** Subscribes to pushed events; the stream is opened for the first listener and closed after the last. */
  onEvent(listener: (event: ApiEvent) => void): () => void {
    this.eventListeners.add(listener);
    if (!this.stopEvents) {
      this.stopEvents = this.transport.subscribe(
        (event) => {
          for (const l of [...this.eventListeners]) l(event);
        },
        (state) => this.setLive(state),
      );
    }
    return () => {
      if (!this.eventListeners.delete(listener)) return;
      if (this.eventListeners.size === 0 && this.stopEvents) {
        const stop = this.stopEvents;
        this.stopEvents = null;
        stop();
      }
    };
  }

  getLiveState(): LiveState {
    return this.live;
  }

  onLiveState(listener: (state: LiveState) => void): () => void {
    this.liveListeners.add(listener);
    return () => this.liveListeners.delete(listener);
  }

  private setLive(state: LiveState): void {
    this.live = state;
    for (const l of [...this.liveListeners]) l(state);
  }

  private keepSessionOrChallenge(answer: SessionInfo | MfaChallenge): SessionInfo | MfaChallenge {
    return isMfaChallenge(answer) ? answer : this.keepSession(answer);
  }

  private keepSession(info: SessionInfo): SessionInfo {
    if (info && typeof info.csrf_token === 'string') this.csrfToken = info.csrf_token;
    return info;
  }
}

/** The sign-in answered with a second-factor challenge instead of a session. */
export function isMfaChallenge(x: unknown): x is MfaChallenge {
  return (
    typeof x === 'object' &&
    x !== null &&
    (x as { mfa_required?: unknown }).mfa_required === true &&
    typeof (x as { mfa_token?: unknown }).mfa_token === 'string'
  );
}

function clusterPath(id: string): string {
  return `${API_PREFIX}/clusters/${encodeURIComponent(id)}`;
}

/** `?a=1&b=x` from the defined, non-empty values (empty string when none). */
export function queryString(query: { [key: string]: string | number | undefined | null } | AuditQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query) as [string, string | number | undefined | null][]) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The same-origin address of a report's HTML (opened in a new tab by the browser console). */
export function reportHtmlPath(id: string, lang: 'en' | 'fr'): string {
  return `${API_PREFIX}/reports/${encodeURIComponent(id)}/html?lang=${lang}`;
}

/** The bridge of the desktop app, when the renderer runs in the Electron window. */
export function findBridge(scope: unknown = globalThis): NavinBridge | null {
  const candidate = (scope as { navin?: unknown } | undefined)?.navin;
  if (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof (candidate as NavinBridge).request === 'function' &&
    typeof (candidate as NavinBridge).onEvent === 'function'
  ) {
    return candidate as NavinBridge;
  }
  return null;
}

/** Bridge when `window.navin` exists, else fetch on the same origin. */
export function createClient(scope: unknown = globalThis): ApiClient {
  const bridge = findBridge(scope);
  return new ApiClient(bridge ? bridgeTransport(bridge) : httpTransport());
}
