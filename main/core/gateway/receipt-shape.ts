// What the gateway accepts as a receipt before anything of it reaches the store: the fields the agent sends, of
// the types the receipts table and the command's outcome hold (an array as replica used to reach SQLite's
// binding and answer 500).
const STATUSES: ReadonlySet<unknown> = new Set(['succeeded', 'failed', 'rejected']);
const optionalString = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why `r` is not a receipt (a sentence for the 400), or null when it is one. */
export function receiptProblem(r: unknown): string | null {
  if (!isObject(r)) return 'each receipt is an object';
  if (typeof r.command_id !== 'string' || !STATUSES.has(r.status)) return 'each receipt has a command_id and a status';
  for (const field of ['code', 'message', 'executed_at', 'replica'] as const)
    if (!optionalString(r[field])) return `a receipt's ${field} is a string`;
  if (r.original !== undefined && r.original !== null) {
    const o = r.original;
    if (!isObject(o) || !STATUSES.has(o.status)) return "a receipt's original outcome has a status";
    if (!optionalString(o.code) || !optionalString(o.executed_at)) return "a receipt's original code and executed_at are strings";
  }
  return null;
}
