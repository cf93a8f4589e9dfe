// Logging in and out (contract: contract/session.ts): password, the one-time login link, the second factor
// (TOTP or a recovery code) and its enrolment, and the first-run setup of the first admin. The router has parsed
// each body with the contract's schema: the credentials reach the core as non-empty text.
import { isMfaChallenge, type NewSession } from './accounts';
import { CoreError } from '../errors';
import type { MfaChallenge, SessionInfo } from '../../contract/session';
import { ApiError } from '../http/api-error';
import { noContent, ok, type Principal, type Reply, type Router } from '../http/router';

const opened = (s: NewSession): Reply<SessionInfo, 200> => ({
  status: 200,
  body: { user: s.user, csrf_token: s.csrf_token, expires_at: s.expires_at, mfa: s.mfa },
  session: s,
});
/** A challenge opens no session: the transport sets no cookie until the code is sent. */
const answered = (r: NewSession | MfaChallenge): Reply<SessionInfo | MfaChallenge, 200> => (isMfaChallenge(r) ? ok(r) : opened(r));

/** Enrolment belongs to the person at the console, not to a script holding one of their API tokens. */
function consoleUser(principal: Principal): void {
  if (principal.via !== 'session') throw new ApiError('forbidden', 'enrol a second factor from a console session, not with an API token');
}

export function sessionRoutes(router: Router): void {
  router.public('GET', '/api/v1/session', ({ manager, credentials }) => {
    const s = credentials.session ? manager.accounts.session(credentials.session) : undefined;
    if (!s) throw new ApiError('unauthenticated', 'no session; log in');
    return ok(s);
  });

  router.public('POST', '/api/v1/session', async ({ manager, body }) => answered(await manager.accounts.login(body.name, body.password)));

  router.public('DELETE', '/api/v1/session', ({ manager, credentials }) => {
    const s = credentials.session ? manager.accounts.session(credentials.session) : undefined;
    if (s && credentials.session) manager.accounts.logout(credentials.session, s.user.name);
    return noContent(null);
  });

  router.public('POST', '/api/v1/session/ticket', ({ manager, body }) => answered(manager.accounts.redeemLoginTicket(body.ticket)));

  router.public('POST', '/api/v1/session/mfa', ({ manager, body }) => opened(manager.accounts.completeMfaLogin(body.mfa_token, body.code)));

  router.authed('POST', '/api/v1/session/mfa/enrolment', 'viewer', async (ctx) => {
    consoleUser(ctx.principal);
    return ok(await ctx.manager.accounts.startMfaEnrolment(ctx.principal.user.id, ctx.principal.actor));
  });

  router.authed('POST', '/api/v1/session/mfa/enrolment/confirm', 'viewer', (ctx) => {
    consoleUser(ctx.principal);
    try {
      return ok({ recovery_codes: ctx.manager.accounts.confirmMfaEnrolment(ctx.principal.user.id, ctx.body.code, ctx.principal.actor) });
    } catch (error) {
      // At login a wrong code is an authentication failure (401); here the session is fine, only the field is wrong.
      if (error instanceof CoreError && error.code === 'mfa_code_invalid') throw new ApiError(error.code, error.message, 'code');
      throw error;
    }
  });

  router.public('GET', '/api/v1/setup', ({ manager }) => ok({ needed: !manager.accounts.hasUsers() }));

  router.public('POST', '/api/v1/setup', async ({ manager, body }) =>
    opened(await manager.accounts.completeSetup(body.token, body.name, body.password)),
  );
}
