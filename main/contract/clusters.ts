// Cluster records and what the console shows of them with their agent.

export type ProfileName = 'development' | 'standard' | 'banking-secure' | 'air-gapped' | 'hybrid';
export type ClusterState = 'pending' | 'connected' | 'offline' | 'revoked';
/** kubernetes: one cluster agent in a Kubernetes cluster; hosts: a node agent on each Linux host. */
export type ClusterKind = 'kubernetes' | 'hosts';

export interface Cluster {
  id: string;
  name: string;
  kind: ClusterKind;
  description: string;
  tenant: string;
  state: ClusterState;
  profile?: ProfileName;
  /** The cluster's DNS name and the address it must resolve to (checked by the preflight DNS checks). */
  fqdn?: string | null;
  address?: string | null;
  created_at: string;
  updated_at: string;
}

/** What the gateway last saw of a cluster's agent. */
export interface AgentStatus {
  connected: boolean;
  last_seen: string | null;
  offline_since: string | null;
  leader_replica: string | null;
  agent_version: string | null;
  certificate_serial: string | null;
}

/** A cluster, its state derived from its certificates and its agent. */
export interface ClusterView extends Cluster {
  agent?: AgentStatus;
  /** When a Kubernetes cluster's kubeconfig was registered (it has the import's inventory from then on). */
  registered_at?: string | null;
}

/**
 * The list is in the console's order (names, digits compared as numbers). Without `limit` it is whole (from
 * `after` on when given); with it, a page, and `next` says where the following one starts.
 */
export interface ClusterListQuery {
  /** At most this many clusters (1 to 1000). */
  limit?: number;
  /** Only the clusters after this name: the `next` of the previous page. */
  after?: string;
}

export interface ClusterList {
  items: ClusterView[];
  /** How many clusters the manager has, whatever part of the list `items` is. */
  total: number;
  /** The `after` of the next page; null when `items` reach the end of the list. */
  next: string | null;
}

export interface ClusterCreate {
  name: string;
  /** Default kubernetes; fixed once created. */
  kind?: ClusterKind;
  description?: string;
  tenant?: string;
  profile?: ProfileName;
  fqdn?: string;
  address?: string;
}

export interface ClusterPatch {
  name?: string;
  description?: string;
  fqdn?: string | null;
  address?: string | null;
  /** Refused with invalid_field: the profile is changed with PUT …/profile (admin). */
  profile?: never;
  /** Refused with invalid_field: the kind of a cluster never changes. */
  kind?: never;
  /** Refused with invalid_field: the tenant of a cluster never changes (agent configs are signed for it). */
  tenant?: never;
}

export interface ClusterRoutes {
  'GET /api/v1/clusters': { query: ClusterListQuery; result: ClusterList };
  'POST /api/v1/clusters': { body: ClusterCreate; result: ClusterView };
  'GET /api/v1/clusters/:id': { result: ClusterView };
  'PATCH /api/v1/clusters/:id': { body: ClusterPatch; result: ClusterView };
  'DELETE /api/v1/clusters/:id': { query: { approval_id?: string }; result: null };
  'GET /api/v1/clusters/:id/agent': { result: AgentStatus };
}
