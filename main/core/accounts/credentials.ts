// The secrets the accounts hand out (sessions, tickets, second-factor challenges), kept only as their sha256, and
// the error of a credential refused.
import { createHash, randomBytes } from 'node:crypto';
import { CoreError } from '../errors';

export class AuthError extends CoreError {}

/** The ways to present a credential: password, second-factor code, login link, setup link. */
export type CredentialRoute = 'password' | 'mfa' | 'ticket' | 'setup';

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
export const secret = (): string => randomBytes(32).toString('base64url');
