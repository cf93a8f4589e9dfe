// The one console API client of the renderer: the typed calls of every resource (one file each) over the
// core (core.ts: the contract-typed `call`, CSRF, error listeners, events) and a transport (transport.ts:
// IPC in the desktop app, fetch and Server-Sent Events in a browser). Stores call this client; components
// never do.
import { ApiCore } from './core';
import { approvalCalls } from './approvals';
import { auditCalls } from './audit';
import { catalogCalls } from './catalog';
import { clusterCalls } from './clusters';
import { componentCalls } from './components';
import { hostCalls } from './hosts';
import { hostsCareCalls } from './hostsCare';
import { mirrorCalls } from './mirror';
import { profileCalls } from './profiles';
import { reportCalls } from './reports';
import { serviceCalls } from './services';
import { sheetCalls } from './sheet';
import { sessionCalls } from './session';
import { settingsCalls } from './settings';
import { tokenCalls } from './tokens';
import { bridgeTransport, findBridge, httpTransport } from './transport';

export { ApiError, isApiError, isApiErrorBody, toApiError } from './api-error';
export { isMfaChallenge, queryString, type CallInput, type CallResult } from './core';
export { reportHtmlPath } from './reports';
export {
  API_PREFIX,
  CSRF_HEADER,
  bridgeTransport,
  findBridge,
  httpTransport,
  parseEvent,
  type Accept,
  type EventSourceFactory,
  type EventSourceLike,
  type HttpTransportOptions,
  type Transport,
} from './transport';

export class ApiClient extends sheetCalls(
  hostsCareCalls(
    catalogCalls(
      serviceCalls(
        hostCalls(
          tokenCalls(
            mirrorCalls(
              reportCalls(auditCalls(settingsCalls(approvalCalls(profileCalls(componentCalls(clusterCalls(sessionCalls(ApiCore)))))))),
            ),
          ),
        ),
      ),
    ),
  ),
) {}

/** Bridge when `window.navin` exists, else fetch on the same origin. */
export function createClient(scope: unknown = globalThis): ApiClient {
  const bridge = findBridge(scope);
  return new ApiClient(bridge ? bridgeTransport(bridge) : httpTransport());
}
