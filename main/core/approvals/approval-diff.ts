// What the approver reads: the change beside what stands now, one line per value that differs, so that an
// approval of "configuration of nats" shows which setting becomes what.

/** One value that differs: its path (`settings.max_memory`), as JSON before and after (null: absent). */
export interface DiffLine {
  path: string;
  before: string | null;
  after: string | null;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Leaves by path; arrays and scalars are leaves (a list is read whole), an empty object is a leaf too. */
function leaves(value: unknown, path: string, out: Map<string, string>): void {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, out);
    return;
  }
  if (value !== undefined && path) out.set(path, JSON.stringify(value));
}

export function approvalDiff(current: unknown, change: unknown): DiffLine[] {
  const before = new Map<string, string>();
  const after = new Map<string, string>();
  leaves(current, '', before);
  leaves(change, '', after);
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  return paths
    .filter((p) => before.get(p) !== after.get(p))
    .map((p) => ({ path: p, before: before.get(p) ?? null, after: after.get(p) ?? null }));
}
