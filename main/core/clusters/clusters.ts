// Cluster records: create, read, rename, describe, remove — each change audited in the same transaction and
// announced to the consoles (`cluster.changed`) — and the views the console shows of them with their agent.
import type { Tables } from '../domain-tables';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { ConflictError, CoreError, found, ValidationError } from '../errors';
import type { Role } from '../accounts/accounts-tables';
import type { Store } from '../store/store';
import type { ClusterRecord } from './clusters-table';
import { isFqdn, labelProblem, nameProblem } from './names';
import { DEFAULT_PROFILE, isProfile, PROFILES } from './profile-names';
import { isIP } from 'node:net';
import type { CoreEvents } from '../events';
import { agentStatus, clusterView, type AgentStatus, type ClusterView } from './agent-status';
import { compareClusterNames } from './list-order';
import type { ClusterCreate, ClusterList, ClusterPatch } from '../../contract/clusters';

/** A new cluster as the route parses it; a caller in the core may name the profile as text, which is checked here. */
export type ClusterInput = Omit<ClusterCreate, 'profile'> & { profile?: string };

/** Which part of the list: `after` is the name the previous page ended on (its `next`), `limit` the page size. */
export interface ClusterPageQuery {
  limit?: number;
  after?: string;
}

// A request's types, and a description's length, are the contract's (clusterCreateSchema, clusterPatchSchema); the
// rules that need Node (an IP address) or the DNS rules the console shares with Kubernetes are judged here.

/** null or "" is no FQDN. */
function checkFqdn(v: string | null): string | null {
  if (v === null || v === '') return null;
  if (!isFqdn(v) || isIP(v)) throw new ValidationError('fqdn', 'fqdn is a fully qualified DNS name such as api.prod.example.internal');
  return v.replace(/\.$/, '').toLowerCase();
}

/** null or "" is no address. */
function checkAddress(v: string | null): string | null {
  if (v === null || v === '') return null;
  if (isIP(v) === 0) throw new ValidationError('address', 'address is the IPv4 or IPv6 address the FQDN must resolve to');
  return v;
}

function checkName(name: string): string {
  const problem = nameProblem(name);
  if (problem) throw new ValidationError('name', problem);
  return name;
}

/** The index of the first item whose name sorts after `after` (items sorted by compareClusterNames). */
function firstAfter<T>(items: readonly T[], name: (item: T) => string, after: string): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareClusterNames(name(items[mid] as T), after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class Clusters {
  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'clusterAccess' | 'clusters' | 'commands' | 'hosts' | 'keys' | 'services'>,
    private readonly clock: Clock,
    private readonly events: CoreEvents,
  ) {}

  /**
   * `role`, when the request comes from a user: a profile other than the default one gates operations, requires
   * second factors and four-eyes, so choosing it is an admin's act, as changing it later is.
   */
  create(input: ClusterInput, actor: string, role?: Role): ClusterRecord {
    const name = checkName(input.name);
    const description = input.description ?? '';
    const tenant = input.tenant ?? 'default';
    const tenantProblem = labelProblem(tenant);
    if (tenantProblem) throw new ValidationError('tenant', `tenant: ${tenantProblem}`);
    const profile = input.profile ?? DEFAULT_PROFILE;
    if (!isProfile(profile)) throw new ValidationError('profile', `profile must be one of ${PROFILES.join(', ')}`);
    if (role !== undefined && role !== 'admin' && profile !== DEFAULT_PROFILE) {
      this.store.tx(() =>
        this.store.audit.append({ actor, action: 'cluster.create_refused', target: name, details: { profile, reason: 'forbidden', role } }),
      );
      throw new CoreError(
        'forbidden',
        `only an admin creates a cluster with the ${profile} profile; an operator's cluster starts as ${DEFAULT_PROFILE}`,
        {
          field: 'profile',
        },
      );
    }
    const fqdn = checkFqdn(input.fqdn ?? null);
    const address = checkAddress(input.address ?? null);
    const kind = input.kind ?? 'kubernetes';
    const now = this.clock.now().toISOString();
    const row: ClusterRecord = {
      id: randomUUID(),
      name,
      kind,
      description,
      tenant,
      state: 'pending',
      profile,
      fqdn,
      address,
      created_at: now,
      updated_at: now,
    };
    const created = this.store.tx(() => {
      if (this.tables.clusters.byName(name)) throw new ConflictError('name_taken', `a cluster named ${name} already exists`);
      this.tables.clusters.insert(row);
      this.store.audit.append({
        actor,
        action: 'cluster.create',
        cluster_id: row.id,
        target: name,
        details: { kind: row.kind, tenant: row.tenant, profile, fqdn, address },
      });
      return row;
    });
    this.changed(created.id);
    return created;
  }

  list(): ClusterRecord[] {
    return this.tables.clusters.list();
  }

  get(id: string): ClusterRecord {
    return found(this.tables.clusters.get(id), 'cluster', id);
  }

  /** A cluster as the console shows it: its state derived from its certificates and what the gateway saw. */
  view(id: string): ClusterView {
    return clusterView(this.tables, this.clock, this.get(id));
  }

  /**
   * The console's list a page at a time. A page with a limit reads only the names (to sort them, find its place
   * and count them) and its own records; only the clusters sent get their view (the agent status and
   * certificates read per cluster are what a whole list costs). The cursor is a name, not an offset: a cluster
   * created or removed before it between two pages does not shift the next one.
   */
  page(query: ClusterPageQuery = {}): ClusterList {
    const { after, limit } = query;
    const view = (c: ClusterRecord): ClusterView => clusterView(this.tables, this.clock, c);
    if (limit === undefined) {
      const rows = this.list().sort((a, b) => compareClusterNames(a.name, b.name));
      const start = after === undefined ? 0 : firstAfter(rows, (r) => r.name, after);
      return { items: rows.slice(start).map(view), total: rows.length, next: null };
    }
    const names = this.tables.clusters.names().sort(compareClusterNames);
    const start = after === undefined ? 0 : firstAfter(names, (n) => n, after);
    const end = Math.min(names.length, start + limit);
    const items = names.slice(start, end).map((name) => view(this.tables.clusters.byName(name) as ClusterRecord));
    return { items, total: names.length, next: end < names.length && end > start ? (names[end - 1] as string) : null };
  }

  agentStatus(id: string): AgentStatus {
    this.get(id);
    return agentStatus(this.tables, this.clock, id);
  }

  update(id: string, input: ClusterPatch, actor: string): ClusterRecord {
    const fields: { name?: string; description?: string; fqdn?: string | null; address?: string | null } = {};
    if (input.name !== undefined) fields.name = checkName(input.name);
    if (input.description !== undefined) fields.description = input.description;
    if (input.fqdn !== undefined) fields.fqdn = checkFqdn(input.fqdn);
    if (input.address !== undefined) fields.address = checkAddress(input.address);
    const updated = this.store.tx(() => {
      const before = this.get(id);
      if (fields.name && fields.name !== before.name && this.tables.clusters.byName(fields.name))
        throw new ConflictError('name_taken', `a cluster named ${fields.name} already exists`);
      if (Object.keys(fields).length > 0) {
        this.tables.clusters.update(id, fields, this.clock.now().toISOString());
        this.store.audit.append({
          actor,
          action: 'cluster.update',
          cluster_id: id,
          target: fields.name ?? before.name,
          details: {
            before: { name: before.name, description: before.description, fqdn: before.fqdn, address: before.address },
            after: fields,
          },
        });
      }
      return this.get(id);
    });
    this.changed(id);
    return updated;
  }

  /** Changes the profile; the rules of the new one apply to the next operation. */
  setProfile(id: string, profile: unknown, actor: string): ClusterRecord {
    if (!isProfile(profile)) throw new ValidationError('profile', `profile must be one of ${PROFILES.join(', ')}`);
    return this.store.tx(() => {
      const before = this.get(id);
      if (before.profile !== profile) {
        this.tables.clusters.update(id, { profile }, this.clock.now().toISOString());
        this.store.audit.append({
          actor,
          action: 'cluster.profile',
          cluster_id: id,
          target: before.name,
          details: { before: before.profile, after: profile },
        });
      }
      return this.get(id);
    });
  }

  /**
   * Deletes a cluster that holds nothing any more: one with services or components would leave them running
   * unmanaged (the spec: a server with installations is not deleted). beforeCommit runs in the transaction (a
   * four-eyes approval spent with it, before the cluster's approvals go with it).
   */
  remove(id: string, actor: string, beforeCommit?: () => void): void {
    this.store.tx(() => {
      const before = this.get(id);
      const services = this.tables.services.list(id).map((s) => s.service);
      const components = Object.keys(this.tables.commands.desiredState(id)?.components ?? {});
      if (services.length > 0 || components.length > 0)
        throw new CoreError(
          'cluster_not_empty',
          `cluster ${before.name} still holds ${[...services, ...components].join(', ')}: uninstall them first`,
          { services, components },
        );
      beforeCommit?.();
      this.tables.keys.revokeClientCertificates(id, this.clock.now().toISOString());
      this.tables.clusters.delete(id);
      this.store.audit.append({ actor, action: 'cluster.delete', cluster_id: id, target: before.name });
    });
    this.changed(id);
  }

  private changed(id: string): void {
    this.events.emit('cluster.changed', { id });
  }
}
