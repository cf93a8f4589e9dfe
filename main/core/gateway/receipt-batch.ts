// A batch of receipts from an agent, cluster or node alike: every receipt parsed before any is recorded (a bad one
// late in the batch used to leave it half-applied), then each recorded by its domain, one for a command of another
// cluster or host refused without stopping the others.
import { ForbiddenReceiptError } from '../commands/commands';
import { RECEIPT, type ReceivedReceipt } from '../../wire/agent-requests';
import { agentBody } from './agent-body';

/** Each receipt of a batch parsed, all before any is recorded: a batch is taken whole or refused whole. */
export function receiptsOf(list: readonly unknown[]): ReceivedReceipt[] {
  return list.map((r, i) => agentBody(RECEIPT, r, ['receipts', i]));
}

/**
 * The receipts recorded in order; one for a command of another cluster or host is refused (ForbiddenReceiptError)
 * and the others still recorded, the refused one named in the answer.
 */
export function recordBatch(
  receipts: readonly ReceivedReceipt[],
  record: (r: ReceivedReceipt) => unknown,
): { accepted: string[]; refused?: string } {
  const accepted: string[] = [];
  let refused: string | undefined;
  for (const r of receipts) {
    try {
      record(r);
      accepted.push(r.command_id);
    } catch (error) {
      if (!(error instanceof ForbiddenReceiptError)) throw error;
      refused = r.command_id;
    }
  }
  return { accepted, ...(refused ? { refused } : {}) };
}
