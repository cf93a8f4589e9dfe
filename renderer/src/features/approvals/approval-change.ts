// The exact change an approval is for, as the request form edits it (JSON text) and the row shows it: an approval
// binds to the digest of this change, so the form sends it as it came from the refused operation.
import { SYSTEM_ACTS } from '../../../../preload/api';

/** The change as editable text: '' for none, pretty JSON otherwise. */
export function changeText(change: unknown): string {
  return change === undefined || change === null ? '' : JSON.stringify(change, null, 2);
}

/** The text back to a change: empty is none (null); anything else must be JSON. */
export function parseChangeText(text: string): { ok: true; change: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, change: null };
  try {
    return { ok: true, change: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The acts on the manager itself: their approval names no cluster (the manager judges it across all). */
export const needsCluster = (action: string): boolean => !(SYSTEM_ACTS as readonly string[]).includes(action);

/** A digest as a person compares it at a glance: its first 16 hex characters, grouped by four. */
export const shortDigest = (digest: string): string => (digest.slice(0, 16).match(/.{1,4}/g) ?? []).join(' ');
