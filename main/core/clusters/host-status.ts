// What the console shows of a host: its record, the facts its agent last reported, and the agent's connection
// (connected while it polls, offline since its last contact, revoked when its identity was revoked).
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';

import type { ClusterState } from './clusters-table';
import type { HostRecord } from '../hosts/hosts-tables';
import type { HostState, HostView } from '../../contract/hosts';

/** A long poll lasts at most 30 s: an agent silent for longer is offline (as for the cluster agent). */
export const HOST_CONNECTED_WITHIN_MS = 45_000;

export type { HostState, HostView };

export function hostView(tables: Tables<'hosts'>, clock: Clock, h: HostRecord): HostView {
  const { agent_version, last_seen, certificate_serial, ...rest } = h;
  const connected = !!last_seen && clock.now().getTime() - new Date(last_seen).getTime() <= HOST_CONNECTED_WITHIN_MS;
  const certs = tables.hosts.certificates(h.id);
  let state: HostState = 'pending';
  if (certs.length > 0 && certs.every((c) => c.revoked_at !== null)) state = 'revoked';
  else if (connected) state = 'connected';
  else if (last_seen) state = 'offline';
  return {
    ...rest,
    state,
    agent: { connected, last_seen, offline_since: last_seen && !connected ? last_seen : null, agent_version, certificate_serial },
  };
}

/** A hosts cluster is connected while one of its hosts is, offline once hosts were seen and none is now. */
export function hostsClusterState(tables: Tables<'hosts'>, clock: Clock, clusterId: string): ClusterState {
  const views = tables.hosts.list(clusterId).map((h) => hostView(tables, clock, h));
  if (views.some((v) => v.state === 'connected')) return 'connected';
  if (views.some((v) => v.state === 'offline')) return 'offline';
  return 'pending';
}
