// Hosts of a cluster of kind `hosts`: add, list, read, remove — each change audited in the same transaction and
// announced to the consoles (`host.changed`) — and the views the console shows of them with their agent.
// Removing a host revokes its node agent's certificate at once.
import type { Tables } from '../domain-tables';
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { Clock } from '../clock';
import { ConflictError, found, ValidationError } from '../errors';
import { HOST_NAME } from '../clusters/names';
import type { ClusterRecord } from '../clusters/clusters-table';
import type { HostRecord } from './hosts-tables';
import type { Store } from '../store/store';
import type { CoreEvents } from '../events';
import { hostView, type HostView } from '../clusters/host-status';
import type { HostCreate } from '../../contract/hosts';

export class Hosts {
  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'clusters' | 'hosts'>,
    private readonly clock: Clock,
    private readonly events: CoreEvents,
  ) {}

  /** The cluster, which must be of kind hosts. */
  hostsCluster(clusterId: string): ClusterRecord {
    const cluster = found(this.tables.clusters.get(clusterId), 'cluster', clusterId);
    if (cluster.kind !== 'hosts')
      throw new ConflictError(
        'cluster_kind_mismatch',
        `cluster ${cluster.name} is of kind ${cluster.kind}: hosts belong to clusters of kind hosts`,
      );
    return cluster;
  }

  add(clusterId: string, input: HostCreate, actor: string): HostRecord {
    const { name, address } = input;
    if (name.length > 63 || !HOST_NAME.test(name) || name.includes('.'))
      throw new ValidationError('name', 'a host name is one DNS label (letters, digits and inner "-"), at most 63 characters');
    if (isIP(address) === 0) throw new ValidationError('address', 'address is the IPv4 or IPv6 address the host is reached at');
    const host = this.store.tx(() => {
      const cluster = this.hostsCluster(clusterId);
      const lower = name.toLowerCase();
      if (this.tables.hosts.byName(clusterId, lower))
        throw new ConflictError('name_taken', `cluster ${cluster.name} already has a host ${lower}`);
      const row = { id: randomUUID(), cluster_id: clusterId, name: lower, address, created_at: this.clock.now().toISOString() };
      this.tables.hosts.insert(row);
      this.store.audit.append({ actor, action: 'host.add', cluster_id: clusterId, target: lower, details: { host_id: row.id, address } });
      return this.tables.hosts.get(row.id)!;
    });
    this.events.emit('host.changed', { id: host.id, cluster_id: clusterId });
    return host;
  }

  list(clusterId: string): HostRecord[] {
    this.hostsCluster(clusterId);
    return this.tables.hosts.list(clusterId);
  }

  get(hostId: string): HostRecord {
    return found(this.tables.hosts.get(hostId), 'host', hostId);
  }

  /** A host as the console shows it: its facts and what the gateway last saw of its agent. */
  view(hostId: string): HostView {
    return hostView(this.tables, this.clock, this.get(hostId));
  }

  views(clusterId: string): HostView[] {
    return this.list(clusterId).map((h) => hostView(this.tables, this.clock, h));
  }

  /** beforeCommit runs in the removal's transaction (a four-eyes approval spent with it). */
  remove(hostId: string, actor: string, beforeCommit?: () => void): void {
    const h = this.get(hostId);
    this.store.tx(() => {
      this.get(hostId);
      const revoked = this.tables.hosts.revokeCertificates(hostId, this.clock.now().toISOString());
      this.tables.hosts.delete(hostId);
      this.store.audit.append({
        actor,
        action: 'host.remove',
        cluster_id: h.cluster_id,
        target: h.name,
        details: { host_id: hostId, revoked },
      });
      beforeCommit?.();
    });
    this.events.emit('host.changed', { id: hostId, cluster_id: h.cluster_id });
  }
}
