// Compares a desired spec with the one observed in the cluster as JSON values: member order is irrelevant,
// list order and every value count. Returns each differing path with both sides, for the evidence.
import { isPlainObject } from '../../wire/payloads';

export interface SpecDifference {
  /** A JSON path from the spec root, e.g. `spec.artifacts[0].image`. */
  path: string;
  desired: unknown;
  observed: unknown;
}

const MAX_DIFFERENCES = 50;

export function specDifferences(desired: unknown, observed: unknown, path = 'spec'): SpecDifference[] {
  const out: SpecDifference[] = [];
  walk(desired, observed, path, out);
  return out;
}

function walk(a: unknown, b: unknown, path: string, out: SpecDifference[]): void {
  if (out.length >= MAX_DIFFERENCES) return;
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    // An absent member and an explicit null are different documents: report both as they are.
    for (const k of keys) {
      const child = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`;
      if (!(k in a)) out.push({ path: child, desired: '(absent)', observed: b[k] });
      else if (!(k in b)) out.push({ path: child, desired: a[k], observed: '(absent)' });
      else walk(a[k], b[k], child, out);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      out.push({ path, desired: a, observed: b });
      return;
    }
    a.forEach((x, i) => walk(x, b[i], `${path}[${i}]`, out));
    return;
  }
  if (a !== b) out.push({ path, desired: a, observed: b });
}
