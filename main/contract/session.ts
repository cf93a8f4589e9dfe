// Logging in and out (password, the one-time login link, the second factor), MFA enrolment, first-run setup.

import type { User } from './users';

export type { Role, User } from './users';

/** Whether the operator has a second factor, and whether the console's profiles require one for their role. */
export interface MfaStatus {
  enrolled: boolean;
  required: boolean;
}

/** `GET /api/v1/session` and every answer that opens a session. */
export interface SessionInfo {
  user: User;
  csrf_token: string;
  expires_at: string;
  mfa?: MfaStatus;
}

/** The answer to a first factor when a second one is due: send the code with this token. */
export interface MfaChallenge {
  mfa_required: true;
  mfa_token: string;
  expires_at: string;
}

export interface LoginRequest {
  name: string;
  password: string;
}

/** `POST /api/v1/session/ticket`: the one-time login link's ticket. */
export interface TicketRequest {
  ticket: string;
}

/** `POST /api/v1/session/mfa`: a 6-digit TOTP code or a recovery code. */
export interface MfaLoginRequest {
  mfa_token: string;
  code: string;
}

/** The new TOTP secret, its otpauth URI and the server-made QR code (SVG). */
export interface MfaEnrolment {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
  account: string;
}

export interface MfaCodeRequest {
  code: string;
}

/** Shown once, when the enrolment is confirmed. */
export interface MfaRecoveryCodes {
  recovery_codes: string[];
}

/** First run: the first admin, with the one-time setup token printed by `navin-manager serve`. */
export interface SetupRequest {
  token: string;
  name: string;
  password: string;
}

export interface SetupStatus {
  needed: boolean;
}

export interface SessionRoutes {
  'GET /api/v1/session': { result: SessionInfo };
  'POST /api/v1/session': { body: LoginRequest; result: SessionInfo | MfaChallenge };
  'DELETE /api/v1/session': { result: null };
  'POST /api/v1/session/ticket': { body: TicketRequest; result: SessionInfo | MfaChallenge };
  'POST /api/v1/session/mfa': { body: MfaLoginRequest; result: SessionInfo };
  'POST /api/v1/session/mfa/enrolment': { result: MfaEnrolment };
  'POST /api/v1/session/mfa/enrolment/confirm': { body: MfaCodeRequest; result: MfaRecoveryCodes };
  'GET /api/v1/setup': { result: SetupStatus };
  'POST /api/v1/setup': { body: SetupRequest; result: SessionInfo };
}
