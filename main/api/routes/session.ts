// Logging in and out (contract: contract/session.ts): password, the one-time login link, the second factor
// (TOTP or a recovery code) and its enrolment, and the first-run setup of the first admin.
import { isMfaChallenge, type MfaChallenge, type NewSession } from '../../core/accounts/accounts';
import { CoreError } from '../../core/errors';
import type { SessionInfo } from '../../contract/session';
import type { RouteSpec } from '../../contract/route';
import { ApiError } from '../api-error';
import { objectBody, stringField } from '../body';
import { noContent, ok, type AuthedContext, type Reply, type Router } from '../router';

const opened = (s: NewSession): Reply<SessionInfo> => ({
  status: 200,
  body: { user: s.user, csrf_token: s.csrf_token, expires_at: s.expires_at, mfa: s.mfa },
  session: s,
});
/** A challenge opens no session: the transport sets no cookie until the code is sent. */
const answered = (r: NewSession | MfaChallenge): Reply<SessionInfo | MfaChallenge> => (isMfaChallenge(r) ? ok(r) : opened(r));

/** Enrolment belongs to the person at the console, not to a script holding one of their API tokens. */
function consoleUser(ctx: AuthedContext<RouteSpec, string>): void {
  if (ctx.principal.via !== 'session')
    throw new ApiError('forbidden', 'enrol a second factor from a console session, not with an API token');
}

export function sessionRoutes(router: Router): void {
  router.public('GET', '/api/v1/session', ({ manager, credentials }) => {
    const s = credentials.session ? manager.accounts.session(credentials.session) : undefined;
    if (!s) throw new ApiError('unauthenticated', 'no session; log in');
    return ok(s);
  });

  router.public('POST', '/api/v1/session', async ({ manager, body }) => {
    const b = objectBody(body);
    return answered(await manager.accounts.login(stringField(b, 'name'), stringField(b, 'password')));
  });

  router.public('DELETE', '/api/v1/session', ({ manager, credentials }) => {
    const s = credentials.session ? manager.accounts.session(credentials.session) : undefined;
    if (s && credentials.session) manager.accounts.logout(credentials.session, s.user.name);
    return noContent(null);
  });

  router.public('POST', '/api/v1/session/ticket', ({ manager, body }) =>
    answered(manager.accounts.redeemLoginTicket(stringField(objectBody(body), 'ticket'))),
  );

  router.public('POST', '/api/v1/session/mfa', ({ manager, body }) => {
    const b = objectBody(body);
    return opened(manager.accounts.completeMfaLogin(stringField(b, 'mfa_token'), stringField(b, 'code')));
  });

  router.authed('POST', '/api/v1/session/mfa/enrolment', 'viewer', async (ctx) => {
    consoleUser(ctx);
    return ok(await ctx.manager.accounts.startMfaEnrolment(ctx.principal.user.id, ctx.principal.actor));
  });

  router.authed('POST', '/api/v1/session/mfa/enrolment/confirm', 'viewer', (ctx) => {
    consoleUser(ctx);
    const code = stringField(objectBody(ctx.body), 'code');
    try {
      return ok({ recovery_codes: ctx.manager.accounts.confirmMfaEnrolment(ctx.principal.user.id, code, ctx.principal.actor) });
    } catch (error) {
      // At login a wrong code is an authentication failure (401); here the session is fine, only the field is wrong.
      if (error instanceof CoreError && error.code === 'mfa_code_invalid') throw new ApiError(error.code, error.message, 'code');
      throw error;
    }
  });

  router.public('GET', '/api/v1/setup', ({ manager }) => ok({ needed: !manager.accounts.hasUsers() }));

  router.public('POST', '/api/v1/setup', async ({ manager, body }) => {
    const b = objectBody(body);
    return opened(await manager.accounts.completeSetup(stringField(b, 'token'), stringField(b, 'name'), stringField(b, 'password')));
  });
}
