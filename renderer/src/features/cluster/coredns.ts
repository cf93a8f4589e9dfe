// CoreDNS on a cluster page: the import identity may read its Deployment, the agent's RBAC does not cover it
// (main/wire/inventory.ts), so an agent's snapshot without CoreDNS says nothing about it; the page shows CoreDNS
// as the newest snapshot that looked for it read it.
import type { Inventory, InventorySnapshot } from '../../api/types';

/** CoreDNS as one snapshot read it (null: not found, or not readable with that snapshot's identity). */
export interface CorednsReading {
  coredns: Inventory['coredns'];
  taken_at: string;
  source: InventorySnapshot['source'];
}

/** Whether a snapshot looked for CoreDNS: one read with the import identity, or one that found it. */
export function lookedForCoredns(snapshot: InventorySnapshot): boolean {
  return snapshot.source === 'import' || snapshot.inventory.coredns !== null;
}

/** The CoreDNS reading to show once `snapshot` arrives: its own if it looked for CoreDNS, else the newest kept. */
export function corednsAfter(kept: CorednsReading | null, snapshot: InventorySnapshot): CorednsReading | null {
  if (!lookedForCoredns(snapshot) || (kept && kept.taken_at > snapshot.taken_at)) return kept;
  return { coredns: snapshot.inventory.coredns, taken_at: snapshot.taken_at, source: snapshot.source };
}
