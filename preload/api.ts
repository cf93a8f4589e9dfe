// The console API as the renderer sees it: the contract of every route (main/contract, one file per
// family: its request, query and result types) and the bridge shapes shared by the Electron IPC transport and
// the HTTPS transport of the headless manager. The renderer imports types (and the contract's schemas) from here and nothing from main/.
import type { Method } from '../main/contract';
import type { CoreEvent } from '../main/contract/events';

export type * from '../main/contract';
// The schemas of the families declared schema first: the console checks its forms with the routes' own rules.
export { MIN_PASSWORD_LENGTH, ROLE_NAMES, userCreateSchema } from '../main/contract/users';
export { syslogTargetSchema } from '../main/contract/settings';
export { driftModes } from '../main/contract/drift';
// The contract's word lists and name rules, so the console's forms offer and check exactly what the routes accept.
export { DNS1123_LABEL, DNS1123_SUBDOMAIN, MAX_CLUSTER_NAME, profileNames } from '../main/contract/clusters';
export { DEFAULT_NAMESPACE, IMAGE_BY_DIGEST } from '../main/contract/kubernetes';
export { COMPONENT_REPLICAS_MAX, COMPONENT_VERSION_MAX, commandStates, componentActions, componentKinds } from '../main/contract/commands';
export { APPROVABLE, APPROVAL_STATES, SYSTEM_ACTS } from '../main/contract/approvals';
export type HttpMethod = Method;

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

export type { CoreEvent, EventMap, EventType } from '../main/contract/events';

/** A pushed event of the core (e.g. `cluster.changed`): one of the contract's event map, narrowed by its `type`. */
export type ApiEvent = CoreEvent;

/** The bridge exposed by preload/ on `window.navin` in the desktop app. */
export interface NavinBridge {
  request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>>;
  /** Pushed events from the core (e.g. `cluster.changed`); returns an unsubscribe function. */
  onEvent(listener: (event: ApiEvent) => void): () => void;
}
