// SQL for the clusters table.
import type { Db } from './database';

export type ClusterState = 'pending' | 'connected' | 'offline' | 'revoked';
export type ProfileName = 'development' | 'standard' | 'banking-secure' | 'air-gapped' | 'hybrid';

export type ClusterKind = 'kubernetes' | 'hosts';

export interface ClusterRecord {
  id: string;
  name: string;
  /** kubernetes: imported, with the cluster agent; hosts: Linux hosts, each with its node agent. */
  kind: ClusterKind;
  description: string;
  tenant: string;
  state: ClusterState;
  profile: ProfileName;
  /** The cluster's DNS name and the address it must resolve to (checked by the preflight DNS checks). */
  fqdn: string | null;
  address: string | null;
  created_at: string;
  updated_at: string;
}

export class ClustersTable {
  constructor(private readonly db: Db) {}

  insert(row: ClusterRecord): void {
    this.db
      .prepare(
        `INSERT INTO clusters (id, name, kind, description, tenant, state, profile, fqdn, address, created_at, updated_at)
         VALUES (@id, @name, @kind, @description, @tenant, @state, @profile, @fqdn, @address, @created_at, @updated_at)`,
      )
      .run(row);
  }

  get(id: string): ClusterRecord | undefined {
    return this.db.prepare('SELECT * FROM clusters WHERE id = ?').get(id) as ClusterRecord | undefined;
  }

  byName(name: string): ClusterRecord | undefined {
    return this.db.prepare('SELECT * FROM clusters WHERE name = ?').get(name) as ClusterRecord | undefined;
  }

  /** The profiles at least one cluster has: asked on every authenticated request, so never a read of every row. */
  profilesInUse(): ProfileName[] {
    return (this.db.prepare('SELECT DISTINCT profile FROM clusters').all() as { profile: ProfileName }[]).map((r) => r.profile);
  }

  list(): ClusterRecord[] {
    return this.db.prepare('SELECT * FROM clusters ORDER BY name').all() as ClusterRecord[];
  }

  /** Every name and nothing else: what a page of the list needs to find its place and the count. */
  names(): string[] {
    return (this.db.prepare('SELECT name FROM clusters ORDER BY name').all() as { name: string }[]).map((r) => r.name);
  }

  update(
    id: string,
    fields: Partial<Pick<ClusterRecord, 'name' | 'description' | 'state' | 'profile' | 'fqdn' | 'address'>>,
    updatedAt: string,
  ): void {
    const sets = Object.keys(fields).map((k) => `${k} = @${k}`);
    this.db
      .prepare(`UPDATE clusters SET ${[...sets, 'updated_at = @updated_at'].join(', ')} WHERE id = @id`)
      .run({ ...fields, updated_at: updatedAt, id });
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM clusters WHERE id = ?').run(id).changes === 1;
  }
}
