// What an agent's contact changes, recorded and announced here whoever carries it in (the gateway is only the
// transport): a cluster agent's or a node agent's sighting (agent.seen, and host.changed for a host), and the
// inventory a cluster agent reports (cluster.changed).
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import type { CoreEvents } from '../events';
import type { Store } from '../store/store';
import { lastSeenWrites, type LastSeenWrites } from './last-seen-writes';

/** What a cluster agent's request says of it besides the time. */
export interface ClusterAgentSighting {
  agent_version: string | null;
  /** The replica that claims leadership, or null for a request that claims nothing. */
  leader_replica: string | null;
  certificate_serial: string;
}

/** What a node agent's request says of it besides the time. */
export interface HostAgentSighting {
  agent_version: string | null;
  certificate_serial: string;
}

export class AgentContacts {
  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'clusterAccess' | 'commands' | 'hosts'>,
    private readonly clock: Clock,
    private readonly events: CoreEvents,
    /** When a sighting is worth writing; shared by every agent of this manager. */
    private readonly lastSeen: LastSeenWrites = lastSeenWrites(),
  ) {}

  /** A cluster agent called: its last-seen record (written when worth it) and agent.seen (always). */
  clusterAgentSeen(clusterId: string, s: ClusterAgentSighting): void {
    const now = this.clock.now();
    const status = { cluster_id: clusterId, last_seen: now.toISOString(), ...s };
    // Not worth an fsync each (see Store.bookkeeping).
    this.lastSeen.note(clusterId, now.getTime(), status, () =>
      this.store.bookkeeping(() => this.tables.commands.upsertAgentStatus(status)),
    );
    this.events.emit('agent.seen', { cluster_id: clusterId });
  }

  /** A host's node agent called: the host's last-seen record (written when worth it), host.changed and agent.seen. */
  hostAgentSeen(host: { id: string; cluster_id: string }, s: HostAgentSighting): void {
    const now = this.clock.now();
    this.lastSeen.note(`host:${host.id}`, now.getTime(), s, () =>
      this.store.bookkeeping(() => this.tables.hosts.seen(host.id, now.toISOString(), s.agent_version, s.certificate_serial)),
    );
    this.events.emit('host.changed', { id: host.id, cluster_id: host.cluster_id });
    // As for a cluster agent: the cluster's own state (derived from its hosts') may have changed with it.
    this.events.emit('agent.seen', { cluster_id: host.cluster_id, host_id: host.id });
  }

  /** A cluster agent's inventory, stored as a snapshot with the components it observes, and cluster.changed. */
  inventoryReported(clusterId: string, inventory: object | null, components: unknown): void {
    this.store.tx(() =>
      this.tables.clusterAccess.insertSnapshot(clusterId, this.clock.now().toISOString(), 'agent', {
        ...inventory,
        observed_components: components ?? null,
      }),
    );
    this.events.emit('cluster.changed', { id: clusterId });
  }
}
