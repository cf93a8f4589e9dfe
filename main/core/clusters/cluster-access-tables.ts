// SQL for what the manager knows of a registered cluster: its API access (token sealed) and inventory snapshots.
import type { Db } from '../store/database';

export interface ClusterAccessRecord {
  cluster_id: string;
  server: string;
  ca_pem: string | null;
  tls_server_name: string | null;
  sealed_token: Buffer;
  namespace: string;
  kubernetes_version: string;
  registered_at: string;
}

export interface InventorySnapshot {
  id: number;
  cluster_id: string;
  taken_at: string;
  source: 'import' | 'agent';
  data: unknown;
}

/** Inventory snapshots kept per cluster and source (import, agent): the latest and a short history. */
export const SNAPSHOTS_KEPT = 20;

export class ClusterAccessTables {
  constructor(private readonly db: Db) {}

  upsertAccess(row: ClusterAccessRecord): void {
    this.db
      .prepare(
        `INSERT INTO cluster_access (cluster_id, server, ca_pem, tls_server_name, sealed_token, namespace, kubernetes_version, registered_at)
         VALUES (@cluster_id, @server, @ca_pem, @tls_server_name, @sealed_token, @namespace, @kubernetes_version, @registered_at)
         ON CONFLICT (cluster_id) DO UPDATE SET server = excluded.server, ca_pem = excluded.ca_pem, tls_server_name = excluded.tls_server_name,
           sealed_token = excluded.sealed_token, namespace = excluded.namespace, kubernetes_version = excluded.kubernetes_version, registered_at = excluded.registered_at`,
      )
      .run(row);
  }

  /** When the cluster was registered, or null: without reading (or unsealing) its access. */
  registeredAt(clusterId: string): string | null {
    const r = this.db.prepare('SELECT registered_at FROM cluster_access WHERE cluster_id = ?').get(clusterId) as
      { registered_at: string } | undefined;
    return r?.registered_at ?? null;
  }

  access(clusterId: string): ClusterAccessRecord | undefined {
    return this.db.prepare('SELECT * FROM cluster_access WHERE cluster_id = ?').get(clusterId) as ClusterAccessRecord | undefined;
  }

  /**
   * Stores a snapshot and forgets those of the same cluster and source beyond the newest SNAPSHOTS_KEPT: the
   * console reads the latest, and an agent reporting every few seconds grew the table without bound.
   */
  insertSnapshot(clusterId: string, takenAt: string, source: InventorySnapshot['source'], data: unknown): number {
    const id = Number(
      this.db
        .prepare('INSERT INTO inventory_snapshots (cluster_id, taken_at, source, data) VALUES (?, ?, ?, ?)')
        .run(clusterId, takenAt, source, JSON.stringify(data)).lastInsertRowid,
    );
    this.db
      .prepare(
        `DELETE FROM inventory_snapshots WHERE cluster_id = ? AND source = ? AND id <= (
           SELECT id FROM inventory_snapshots WHERE cluster_id = ? AND source = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
      )
      .run(clusterId, source, clusterId, source, SNAPSHOTS_KEPT);
    return id;
  }

  snapshotCount(clusterId: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM inventory_snapshots WHERE cluster_id = ?').get(clusterId) as { n: number }).n;
  }

  latestAgentSnapshot(clusterId: string): InventorySnapshot | undefined {
    const row = this.db
      .prepare("SELECT * FROM inventory_snapshots WHERE cluster_id = ? AND source = 'agent' ORDER BY id DESC LIMIT 1")
      .get(clusterId) as (Omit<InventorySnapshot, 'data'> & { data: string }) | undefined;
    return row && { ...row, data: JSON.parse(row.data) as unknown };
  }

  latestSnapshot(clusterId: string): InventorySnapshot | undefined {
    const row = this.db.prepare('SELECT * FROM inventory_snapshots WHERE cluster_id = ? ORDER BY id DESC LIMIT 1').get(clusterId) as
      (Omit<InventorySnapshot, 'data'> & { data: string }) | undefined;
    return row && { ...row, data: JSON.parse(row.data) as unknown };
  }
}
