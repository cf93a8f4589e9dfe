// SQL for the clusters table.
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';
import type { Cluster, ClusterKind, ClusterState, ProfileName } from '../../contract/clusters';

export type { ClusterKind, ClusterState, ProfileName };

/** A cluster as stored: the contract's, with the profile, FQDN and address it always has (null: none). */
export type ClusterRecord = Required<Cluster>;

export class ClustersTable {
  constructor(private readonly db: Db) {}

  insert(row: ClusterRecord): void {
    this.db
      .prepare(insertSql('clusters', 'id, name, kind, description, tenant, state, profile, fqdn, address, created_at, updated_at'))
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
