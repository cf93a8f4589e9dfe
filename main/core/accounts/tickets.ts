// One-time tickets: the first-run setup link (one at a time, only while no account exists) and serve's login link.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import type { Store } from '../store/store';
import { secret, sha256 } from './credentials';

export const TICKET_TTL_MS = 15 * 60_000;

/** A fresh ticket; a new setup ticket voids any older one. */
export function issueTicket(
  store: Store,
  tables: Tables<'accounts'>,
  clock: Clock,
  kind: 'setup' | 'login',
  userId: string | null,
): string {
  const token = secret();
  store.tx(() => {
    if (kind === 'setup') tables.accounts.deleteTickets('setup');
    tables.accounts.insertTicket({
      token_hash: sha256(token),
      kind,
      user_id: userId,
      expires_at: new Date(clock.now().getTime() + TICKET_TTL_MS).toISOString(),
    });
  });
  return token;
}
