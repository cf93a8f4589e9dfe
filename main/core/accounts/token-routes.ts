// API tokens of a user (contract: contract/tokens.ts): the list with each token's state and a revocation (an
// admin for anyone, each user their own), a new one (its secret shown once, its lifetime 90 days unless asked
// otherwise) by its own user only: an admin holding a token of someone else could act as them, and request an
// approval in their name to approve himself. A token cannot mint tokens: creation needs a console session, so a
// leaked token cannot outlive its own expiry.
import { ApiError } from '../http/api-error';
import { ok, type Principal, type Router } from '../http/router';

function mayManage(principal: Principal, name: string): void {
  if (principal.user.role !== 'admin' && principal.user.name !== name)
    throw new ApiError('forbidden', `only an admin manages the API tokens of ${name}`);
}

export function tokenRoutes(router: Router): void {
  router.authed('GET', '/api/v1/users/:name/tokens', 'viewer', ({ manager, params, principal }) => {
    mayManage(principal, params.name);
    return ok({ items: manager.accounts.tokens.list(params.name) });
  });

  router.authed('POST', '/api/v1/users/:name/tokens', 'viewer', ({ manager, params, principal, body }) => {
    if (principal.user.name !== params.name)
      throw new ApiError('token_owner_only', `only ${params.name} creates their own API tokens, from their own session`);
    if (principal.via !== 'session')
      throw new ApiError('forbidden', 'create API tokens from a console session (or navin-manager token create), not with an API token');
    return ok(manager.accounts.tokens.create(params.name, { expires: body?.expires, name: body?.name }, principal.actor), 201);
  });

  router.authed('DELETE', '/api/v1/users/:name/tokens/:id', 'viewer', ({ manager, params, principal }) => {
    mayManage(principal, params.name);
    return ok(manager.accounts.tokens.revoke(params.name, params.id, principal.actor));
  });
}
