// API tokens of a user (admins for anyone, each user for their own): the list with each token's state, a new one
// (its secret shown once, its lifetime 90 days unless asked otherwise), and a revocation. A token cannot mint
// tokens: creation needs a console session, so a leaked token cannot outlive its own expiry.
import { ApiError } from '../api-error';
import { objectBody } from '../body';
import { ok, type AuthedContext, type Router } from '../router';

function mayManage(ctx: AuthedContext, name: string): void {
  if (ctx.principal.user.role !== 'admin' && ctx.principal.user.name !== name)
    throw new ApiError(403, 'forbidden', `only an admin manages the API tokens of ${name}`);
}

export function tokenRoutes(router: Router): void {
  router.authed('GET', '/api/v1/users/:name/tokens', 'viewer', (ctx) => {
    mayManage(ctx, ctx.params.name!);
    return ok({ items: ctx.manager.accounts.tokens.list(ctx.params.name!) });
  });

  router.authed('POST', '/api/v1/users/:name/tokens', 'viewer', (ctx) => {
    mayManage(ctx, ctx.params.name!);
    if (ctx.principal.via !== 'session')
      throw new ApiError(
        403,
        'forbidden',
        'create API tokens from a console session (or navin-manager token create), not with an API token',
      );
    const b = ctx.body === undefined ? {} : objectBody(ctx.body);
    return ok(ctx.manager.accounts.tokens.create(ctx.params.name!, { expires: b.expires, name: b.name }, ctx.principal.actor), 201);
  });

  router.authed('DELETE', '/api/v1/users/:name/tokens/:id', 'viewer', (ctx) => {
    mayManage(ctx, ctx.params.name!);
    return ok(ctx.manager.accounts.tokens.revoke(ctx.params.name!, ctx.params.id!, ctx.principal.actor));
  });
}
