// The calls of the system and session routes (contract: contract/system.ts, contract/session.ts): health and
// version, sign-in in one or two steps, MFA enrolment, logout and the first-run setup.
import type { LoginRequest, SetupRequest } from '../../../../preload/api';
import type { ApiCoreClass } from '../../api/core';

export const sessionCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    health = () => this.call('GET /api/v1/health');
    version = () => this.call('GET /api/v1/version');

    async getSession() {
      return this.keepSession(await this.call('GET /api/v1/session'));
    }
    /** A session, or the second-factor challenge when the account has (or must have) one. */
    async login(req: LoginRequest) {
      return this.keepSessionOrChallenge(await this.call('POST /api/v1/session', { body: req }));
    }
    async exchangeTicket(ticket: string) {
      return this.keepSessionOrChallenge(await this.call('POST /api/v1/session/ticket', { body: { ticket } }));
    }
    /** The second step of a sign-in: the TOTP code (or a recovery code) for the challenge's token. */
    async loginMfa(mfaToken: string, code: string) {
      return this.keepSession(await this.call('POST /api/v1/session/mfa', { body: { mfa_token: mfaToken, code } }));
    }
    startMfaEnrolment = () => this.call('POST /api/v1/session/mfa/enrolment');
    confirmMfaEnrolment = (code: string) => this.call('POST /api/v1/session/mfa/enrolment/confirm', { body: { code } });
    async logout(): Promise<void> {
      try {
        await this.call('DELETE /api/v1/session');
      } finally {
        this.forgetSession();
      }
    }
    setupStatus = () => this.call('GET /api/v1/setup');
    async setup(req: SetupRequest) {
      return this.keepSession(await this.call('POST /api/v1/setup', { body: req }));
    }
  };
