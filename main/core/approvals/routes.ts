// Four-eyes approvals (contract: contract/approvals.ts): the list, a request (operator), the decision of
// another admin. The service announces each change (`approval.changed`).
import { ApiError } from '../http/api-error';
import { ok, type AuthedContext, type Principal, type Reply, type Router } from '../http/router';
import type { ApprovalRoutes } from '../../contract/approvals';

type Decision = ApprovalRoutes['POST /api/v1/approvals/:id/approve'];

/**
 * Each of the four eyes is a person at the console, behind their own second factor: never a token, which may
 * have been handed to (or minted by) someone else. The use of an approval is refused the same way by the router.
 */
function needsSession(principal: Principal): void {
  if (principal.via === 'token')
    throw new ApiError('approval_needs_session', 'approvals are requested and decided from a console session, not with an API token');
}

export function approvalRoutes(router: Router): void {
  router.authed('GET', '/api/v1/approvals', 'viewer', ({ manager, query, principal }) =>
    ok({ items: manager.approvals.list({ cluster_id: query.cluster_id, state: query.state }, principal.user) }),
  );

  router.authed('POST', '/api/v1/approvals', 'operator', ({ manager, body, principal }) => {
    needsSession(principal);
    return ok(manager.approvals.request(body, principal.user), 201);
  });

  router.authed('GET', '/api/v1/approvals/:id', 'viewer', ({ manager, params, principal }) =>
    ok(manager.approvals.get(params.id, principal.user)),
  );

  const decide =
    (decision: 'approve' | 'reject') =>
    ({ manager, params, body, principal }: AuthedContext<Decision, '/api/v1/approvals/:id'>): Reply<Decision['result'], 200> => {
      needsSession(principal);
      return ok(manager.approvals[decision](params.id, principal.user, body?.note));
    };
  router.authed('POST', '/api/v1/approvals/:id/approve', 'admin', decide('approve'));
  router.authed('POST', '/api/v1/approvals/:id/reject', 'admin', decide('reject'));
}
