// What the console shows of a cluster's agent, derived from what the gateway last saw: connected while it
// polls, offline since its last contact once it stops, revoked when its identity was revoked.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import type { ClusterRecord, ClusterState } from './clusters-table';
import { hostsClusterState } from './host-status';
import type { AgentStatus, ClusterView as ContractClusterView } from '../../contract/clusters';

/** A long poll lasts at most 30 s; an agent silent for longer than this is offline. */
export const CONNECTED_WITHIN_MS = 45_000;

export type { AgentStatus };

/** The contract's view with every field the core fills in: registered_at null before, and for a hosts cluster. */
export type ClusterView = Required<ContractClusterView>;

export function agentStatus(tables: Tables<'clusterAccess' | 'commands' | 'keys'>, clock: Clock, clusterId: string): AgentStatus {
  const s = tables.commands.agentStatus(clusterId);
  const connected = !!s && clock.now().getTime() - new Date(s.last_seen).getTime() <= CONNECTED_WITHIN_MS;
  return {
    connected,
    last_seen: s?.last_seen ?? null,
    offline_since: s && !connected ? s.last_seen : null,
    leader_replica: s?.leader_replica ?? null,
    agent_version: s?.agent_version ?? null,
    certificate_serial: s?.certificate_serial ?? null,
  };
}

export function clusterView(tables: Tables<'clusterAccess' | 'commands' | 'hosts' | 'keys'>, clock: Clock, c: ClusterRecord): ClusterView {
  const agent = agentStatus(tables, clock, c.id);
  if (c.kind === 'hosts') return { ...c, state: hostsClusterState(tables, clock, c.id), agent, registered_at: null };
  const certs = tables.keys.certificatesOf(c.id).filter((x) => x.kind === 'client');
  let state: ClusterState = 'pending';
  if (certs.length > 0 && certs.every((x) => x.revoked_at !== null)) state = 'revoked';
  else if (agent.connected) state = 'connected';
  else if (agent.last_seen) state = 'offline';
  return { ...c, state, agent, registered_at: tables.clusterAccess.registeredAt(c.id) };
}
