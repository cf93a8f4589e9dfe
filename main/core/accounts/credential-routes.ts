// The public routes that take a credential (password, second-factor code, login link, setup link): the ones a
// transport rate-limits per source, and whose refused bodies still count as failed logins in the audit log.
import type { CredentialRoute } from './accounts';
import { loginRequestSchema } from '../../contract/session';

export type { CredentialRoute };

const ROUTES: Record<string, CredentialRoute> = {
  'POST /api/v1/session': 'password',
  'POST /api/v1/session/mfa': 'mfa',
  'POST /api/v1/session/ticket': 'ticket',
  'POST /api/v1/setup': 'setup',
};

/** Which credential route a request is for, matched as the router matches paths (empty segments ignored). */
export function credentialRoute(method: string, path: string): CredentialRoute | undefined {
  return ROUTES[`${method} /${path.split('/').filter(Boolean).join('/')}`];
}

/** The user name a refused body meant, when it can still be read, for the audit row of the failed login. */
export function nameHint(raw: Uint8Array): string | undefined {
  try {
    return nameHintOf(JSON.parse(Buffer.from(raw).toString('utf8')));
  } catch {
    return undefined;
  }
}

/** A login's or a setup's `name`, read by the contract's rule for it (text, not empty). */
const namedBody = loginRequestSchema.pick({ name: true });

export function nameHintOf(body: unknown): string | undefined {
  const read = namedBody.safeParse(body);
  return read.success ? read.data.name.slice(0, 64) : undefined;
}
