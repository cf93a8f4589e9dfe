// The console API as the renderer sees it: request and response shapes shared by the Electron IPC bridge and
// the HTTPS transport of the headless manager. The renderer imports types from here and nothing from main/.

/** The inventory shapes are the wire contract's own (what the agent posts and the manager stores). */
export type { Inventory, NodeInventory } from '../main/wire/inventory';

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
  | 'payload_too_large'
  | 'internal';

export type Role = 'viewer' | 'operator' | 'admin';

export interface User {
  id: string;
  name: string;
  role: Role;
  created_at: string;
}

/** `GET /api/v1/session` and `POST /api/v1/session`. */
export interface SessionInfo {
  user: User;
  csrf_token: string;
  expires_at: string;
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
  created_at: string;
  updated_at: string;
}

export interface ClusterCreate {
  name: string;
  description?: string;
  tenant?: string;
}

export interface ClusterPatch {
  name?: string;
  description?: string;
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
