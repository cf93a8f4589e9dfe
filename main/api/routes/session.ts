// Logging in and out: password, the one-time login link, and the first-run setup of the first admin.
import type { NewSession } from '../../core/accounts/accounts';
import { ApiError } from '../api-error';
import { objectBody, stringField } from '../body';
import { ok, type ApiResult, type Router } from '../router';

const opened = (s: NewSession): ApiResult => ({ status: 200, body: { user: s.user, csrf_token: s.csrf_token, expires_at: s.expires_at }, session: s });

export function sessionRoutes(router: Router): void {
  router.public('GET', '/api/v1/session', ({ manager, credentials }) => {
    const s = credentials.session ? manager.accounts.session(credentials.session) : undefined;
    if (!s) throw new ApiError(401, 'unauthenticated', 'no session; log in');
    return ok(s);
  });

  router.public('POST', '/api/v1/session', async ({ manager, body }) => {
    const b = objectBody(body);
    return opened(await manager.accounts.login(stringField(b, 'name'), stringField(b, 'password')));
  });

  router.public('DELETE', '/api/v1/session', ({ manager, credentials }) => {
    const s = credentials.session ? manager.accounts.session(credentials.session) : undefined;
    if (s) manager.accounts.logout(credentials.session!, s.user.name);
    return { status: 204, body: null, session: null };
  });

  router.public('POST', '/api/v1/session/ticket', ({ manager, body }) => opened(manager.accounts.redeemLoginTicket(stringField(objectBody(body), 'ticket'))));

  router.public('GET', '/api/v1/setup', ({ manager }) => ok({ needed: !manager.accounts.hasUsers() }));

  router.public('POST', '/api/v1/setup', async ({ manager, body }) => {
    const b = objectBody(body);
    return opened(await manager.accounts.completeSetup(stringField(b, 'token'), stringField(b, 'name'), stringField(b, 'password')));
  });
}
