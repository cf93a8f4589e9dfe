// The steps every signed command goes through, whoever it is for (a cluster's agent or a host's node agent):
// signed with the active key, handed to its agent when due (again when unacknowledged in time), and closed by
// its first final receipt. Commands (clusters) and HostCommands (hosts) both run them and keep what is theirs
// explicit: where a command is queued and audited, which agent owns it, and what a receipt records besides.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import { CoreError } from '../errors';
import type { Store } from '../store/store';
import type { CommandRecord } from './commands-tables';
import { buildCommand, signDocument, type SignedDocument, type Signer } from '../../wire/envelope';
import type { ReceivedReceipt } from '../../wire/agent-requests';

/** A command signed for one agent, not yet queued. */
export interface SignedCommand {
  command_id: string;
  envelope: SignedDocument;
  not_after: string;
}

/** Signs a command for `target` (a cluster id or a host id), valid from `now` for `validitySeconds`. */
export function signCommand(
  signer: Signer,
  c: { tenant: string; target: string; op: string; args: Record<string, unknown>; now: Date; validitySeconds: number },
): SignedCommand {
  const payload = buildCommand(c);
  return { command_id: payload.command_id, not_after: payload.not_after, envelope: signDocument(payload, signer) };
}

/**
 * Hands an agent its due commands (`due` lists them: never delivered, or delivered before `redeliverBefore` and
 * not acknowledged) and marks them delivered, in one transaction. `live` judges the asking certificate inside
 * it, so that nothing is delivered to it once its revocation has committed (certificate_refused, nothing marked).
 */
export function deliverDue(
  store: Store,
  tables: Tables<'commands'>,
  clock: Clock,
  redeliverAfterS: number,
  due: (redeliverBefore: string, now: string) => CommandRecord[],
  live?: () => boolean,
): unknown[] {
  return store.tx(() => {
    if (live && !live()) throw new CoreError('certificate_refused', 'this client certificate was revoked');
    const now = clock.now();
    const list = due(new Date(now.getTime() - redeliverAfterS * 1000).toISOString(), now.toISOString());
    for (const c of list) tables.commands.markDelivered(c.id, now.toISOString());
    return list.map((c) => c.envelope);
  });
}

/** The outcome a receipt gives its command: a replayed nonce carries the first execution's, which stays the status. */
export const outcomeOf = (receipt: ReceivedReceipt): Pick<ReceivedReceipt, 'status' | 'code' | 'result'> =>
  receipt.code === 'nonce_replayed' && receipt.original ? receipt.original : receipt;

/**
 * Records a receipt of a command its agent owns, inside the caller's transaction: the receipt kept (`body` as
 * stored) and, if it is the first final one, the command closed with its outcome (`result` as stored). Whether it
 * closed the command.
 */
export function closeWithReceipt(
  tables: Tables<'commands'>,
  now: string,
  command: { id: string; cluster_id: string },
  receipt: ReceivedReceipt,
  stored: { body: unknown; result: unknown },
): boolean {
  tables.commands.insertReceipt({
    command_id: command.id,
    cluster_id: command.cluster_id,
    received_at: now,
    status: receipt.status,
    code: receipt.code ?? null,
    replica: receipt.replica ?? null,
    body: stored.body,
  });
  const outcome = outcomeOf(receipt);
  return tables.commands.complete(command.id, outcome.status, outcome.code ?? null, stored.result, now);
}

/** Who waits for an agent's next command (the gateway's long polls), by the key of that agent. */
export class QueuedListeners {
  private readonly listeners = new Set<(key: string) => void>();

  add(listener: (key: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  wake(key: string): void {
    for (const l of this.listeners) l(key);
  }
}
