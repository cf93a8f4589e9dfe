// The inventory.fresh line: the newest inventory snapshot (from the import identity or the agent) is younger
// than 15 minutes, so the rest of the report describes the cluster as it is, not as it was.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import { TEXT } from './line-texts';
import { type Evidence, type ReportLine } from '../../contract/check-types';

export const INVENTORY_MAX_AGE_MS = 15 * 60_000;

interface InventoryShape {
  kubernetes_version?: unknown;
  nodes?: { name?: unknown; ready?: unknown }[];
}

export function inventoryFreshLine(clusterId: string, tables: Tables<'clusterAccess'>, clock: Clock): ReportLine {
  const title = TEXT.inventoryTitle;
  const ran_at = clock.now().toISOString();
  const snapshot = tables.clusterAccess.latestSnapshot(clusterId);
  const evidence: Evidence = {
    method: 'read the latest inventory snapshot of the cluster (store)',
    at: ran_at,
    max_age_s: INVENTORY_MAX_AGE_MS / 1000,
  };
  if (!snapshot) {
    evidence.taken_at = null;
    evidence.reason = TEXT.noInventory;
    return { id: 'inventory.fresh', title, status: 'FAIL', evidence, ran_at };
  }
  const data = (snapshot.data ?? {}) as InventoryShape;
  const nodes = Array.isArray(data.nodes) ? data.nodes : [];
  const ageMs = clock.now().getTime() - new Date(snapshot.taken_at).getTime();
  Object.assign(evidence, {
    taken_at: snapshot.taken_at,
    age_s: Math.round(ageMs / 1000),
    source: snapshot.source,
    node_count: nodes.length,
    nodes_ready: nodes.filter((n) => n?.ready === true).length,
    kubernetes_version: typeof data.kubernetes_version === 'string' ? data.kubernetes_version : null,
  });
  if (ageMs > INVENTORY_MAX_AGE_MS) {
    evidence.reason = TEXT.inventoryOld(snapshot.taken_at);
    return { id: 'inventory.fresh', title, status: 'FAIL', evidence, ran_at };
  }
  return { id: 'inventory.fresh', title, status: 'PASS', evidence, ran_at };
}
