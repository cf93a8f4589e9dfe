// The order of the console's clusters list, kept by the manager so that a first page is the first screen the
// console shows: names compared as the console sorts them (digits as numbers: edge-9 before edge-10).
// The console's store (renderer/src/stores/clusters.ts) keeps the same comparison; a test holds them together.

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Numeric collation, then code units: names are unique, so two clusters never compare equal (a keyset cursor needs it). */
export function compareClusterNames(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
