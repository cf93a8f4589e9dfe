// A journal read's text is unredacted logs: the store keeps it only until its asker (the sheet's Logs, the
// support archive) has read it. Once read, or once the asker has stopped waiting, the command's result becomes
// a marker that a late receipt does not overwrite; receipts of journal reads are stored without their result.
import type { ReceivedReceipt } from '../../wire/agent-requests';

/** The result of a journal read once its text is gone from the store. */
export const TEXT_DROPPED = { text_dropped: true } as const;

export const isTextDropped = (result: unknown): boolean => (result as { text_dropped?: unknown } | null)?.text_dropped === true;

/** A journal read's receipt as stored: its outcome without the text (the command's result holds it, until read). */
export function receiptWithoutText(r: ReceivedReceipt): ReceivedReceipt {
  const { result: _r, ...rest } = r;
  if (!r.original) return rest;
  const { result: _o, ...original } = r.original;
  return { ...rest, original };
}
