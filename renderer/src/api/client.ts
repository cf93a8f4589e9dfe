// The one console API client of the renderer: the typed calls of every resource (each feature's api.ts) over the
// core (core.ts: the contract-typed `call`, CSRF, error listeners, events) and a transport (transport.ts:
// IPC in the desktop app, fetch and Server-Sent Events in a browser). Stores call this client; components
// never do.
import { ApiCore } from './core';
import { approvalCalls } from '../features/approvals/api';
import { auditCalls } from '../features/audit/api';
import { catalogCalls } from '../features/services/catalogApi';
import { certificateCalls } from '../features/certificates/api';
import { clusterCalls } from '../features/clusters/api';
import { componentCalls } from '../features/components/api';
import { hostCalls } from '../features/hosts/api';
import { hostsCareCalls } from '../features/hosts-care/api';
import { mirrorCalls } from '../features/mirror/api';
import { profileCalls } from '../features/profile/api';
import { reportCalls } from '../features/reports/api';
import { serviceCalls } from '../features/services/api';
import { sheetCalls } from '../features/service-sheet/api';
import { sessionCalls } from '../features/session/api';
import { settingsCalls } from '../features/settings/api';
import { tokenCalls } from '../features/settings/tokensApi';
import { bridgeTransport, findBridge, httpTransport } from './transport';

export { ApiError, isApiError, isApiErrorBody, toApiError } from './api-error';
export { isMfaChallenge, queryString, type CallInput, type CallResult } from './core';
export { reportHtmlPath } from '../features/reports/api';
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

export class ApiClient extends certificateCalls(
  sheetCalls(
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
  ),
) {}

/** Bridge when `window.navin` exists, else fetch on the same origin. */
export function createClient(scope: unknown = globalThis): ApiClient {
  const bridge = findBridge(scope);
  return new ApiClient(bridge ? bridgeTransport(bridge) : httpTransport());
}
