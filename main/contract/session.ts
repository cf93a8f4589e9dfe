// Logging in and out (password, the one-time login link, the second factor), MFA enrolment, first-run setup.
// Declared schema first: the core's sessions, challenges and enrolments are these types.
import { z } from './zod';
import type { RoutesOf } from './route';
import { userSchema } from './users';

export type { Role, User } from './users';

/** A credential field: text, not empty (the words the routes answered before they were declared schema first). */
const required = (field: string) => z.string({ error: `${field} is required (a string)` }).min(1, `${field} is required (a string)`);

/** Whether the operator has a second factor, and whether the console's profiles require one for their role. */
export const mfaStatusSchema = z.object({ enrolled: z.boolean(), required: z.boolean() });
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

/** `GET /api/v1/session` and every answer that opens a session. */
export const sessionInfoSchema = z.object({
  user: userSchema,
  csrf_token: z.string(),
  expires_at: z.string(),
  mfa: mfaStatusSchema.optional(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** The answer to a first factor when a second one is due: send the code with this token. */
export const mfaChallengeSchema = z.object({ mfa_required: z.literal(true), mfa_token: z.string(), expires_at: z.string() });
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

export const loginRequestSchema = z.object({ name: required('name'), password: required('password') });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** `POST /api/v1/session/ticket`: the one-time login link's ticket. */
export const ticketRequestSchema = z.object({ ticket: required('ticket') });
export type TicketRequest = z.infer<typeof ticketRequestSchema>;

/** `POST /api/v1/session/mfa`: a 6-digit TOTP code or a recovery code. */
export const mfaLoginRequestSchema = z.object({ mfa_token: required('mfa_token'), code: required('code') });
export type MfaLoginRequest = z.infer<typeof mfaLoginRequestSchema>;

/** The new TOTP secret, its otpauth URI and the server-made QR code (SVG). */
export const mfaEnrolmentSchema = z.object({
  /** base32, for typing into an app that cannot scan. */
  secret: z.string(),
  otpauth_uri: z.string(),
  qr_svg: z.string(),
  account: z.string(),
});
export type MfaEnrolment = z.infer<typeof mfaEnrolmentSchema>;

export const mfaCodeRequestSchema = z.object({ code: required('code') });
export type MfaCodeRequest = z.infer<typeof mfaCodeRequestSchema>;

/** Shown once, when the enrolment is confirmed. */
export const mfaRecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type MfaRecoveryCodes = z.infer<typeof mfaRecoveryCodesSchema>;

/** First run: the first admin, with the one-time setup token printed by `navin-manager serve`. */
export const setupRequestSchema = z.object({ token: required('token'), name: required('name'), password: required('password') });
export type SetupRequest = z.infer<typeof setupRequestSchema>;

export const setupStatusSchema = z.object({ needed: z.boolean() });
export type SetupStatus = z.infer<typeof setupStatusSchema>;

const opened = z.union([sessionInfoSchema, mfaChallengeSchema]);

export const sessionRouteSchemas = {
  'GET /api/v1/session': { result: sessionInfoSchema },
  'POST /api/v1/session': { body: loginRequestSchema, result: opened },
  'DELETE /api/v1/session': { result: z.null() },
  'POST /api/v1/session/ticket': { body: ticketRequestSchema, result: opened },
  'POST /api/v1/session/mfa': { body: mfaLoginRequestSchema, result: sessionInfoSchema },
  'POST /api/v1/session/mfa/enrolment': { result: mfaEnrolmentSchema },
  'POST /api/v1/session/mfa/enrolment/confirm': { body: mfaCodeRequestSchema, result: mfaRecoveryCodesSchema },
  'GET /api/v1/setup': { result: setupStatusSchema },
  'POST /api/v1/setup': { body: setupRequestSchema, result: sessionInfoSchema },
} as const;

export type SessionRoutes = RoutesOf<typeof sessionRouteSchemas>;
