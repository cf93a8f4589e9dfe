// Cluster records and what the console shows of them with their agent. Declared schema first: the schemas judge
// a request's JSON shape and its word lists (kind, profile); what needs the manager's Node side or its store (a
// DNS name's rule, an FQDN, an IP address, a name already taken, who may choose a profile) the core judges, and
// the core's records and views are these types.
import { z } from './zod';
import type { RoutesOf } from './route';
import { queryWholeNumber } from './query-numbers';

export const profileNames = ['development', 'standard', 'banking-secure', 'air-gapped', 'hybrid'] as const;
export type ProfileName = (typeof profileNames)[number];
export const clusterStates = ['pending', 'connected', 'offline', 'revoked'] as const;
export type ClusterState = (typeof clusterStates)[number];
/** kubernetes: one cluster agent in a Kubernetes cluster; hosts: a node agent on each Linux host. */
export const clusterKinds = ['kubernetes', 'hosts'] as const;
export type ClusterKind = (typeof clusterKinds)[number];

const nullableText = z.string().nullable();

export const clusterSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Fixed once created. */
  kind: z.enum(clusterKinds),
  description: z.string(),
  tenant: z.string(),
  state: z.enum(clusterStates),
  profile: z.enum(profileNames).optional(),
  /** The cluster's DNS name and the address it must resolve to (checked by the preflight DNS checks). */
  fqdn: z.string().nullish(),
  address: z.string().nullish(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Cluster = z.infer<typeof clusterSchema>;

/** What the gateway last saw of a cluster's agent. */
export const agentStatusSchema = z.object({
  connected: z.boolean(),
  last_seen: nullableText,
  offline_since: nullableText,
  /** The replica holding the agent's lease (a node agent has none). */
  leader_replica: nullableText,
  agent_version: nullableText,
  certificate_serial: nullableText,
});
export type AgentStatus = z.infer<typeof agentStatusSchema>;

/** A cluster, its state derived from its certificates and its agent. */
export const clusterViewSchema = clusterSchema.extend({
  agent: agentStatusSchema.optional(),
  /** When a Kubernetes cluster's kubeconfig was registered (it has the import's inventory from then on). */
  registered_at: z.string().nullish(),
});
export type ClusterView = z.infer<typeof clusterViewSchema>;

/** The page size of the cluster list. */
export const CLUSTER_LIMIT_RANGE = { min: 1, max: 1000 } as const;
/** The longest cluster name (a DNS-1123 subdomain), so the longest cursor. */
export const MAX_CLUSTER_NAME = 253;
/** Kubernetes's name rules (DNS-1123), which the core applies to cluster and object names and the console to its
 * forms: a subdomain (letters, digits, '-' and '.') and a label (no '.'), both starting and ending with a letter or digit. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The list is in the console's order (names, digits compared as numbers). Without `limit` it is whole (from
 * `after` on when given); with it, a page, and `next` says where the following one starts.
 */
export const clusterListQuerySchema = z.object({
  /** At most this many clusters. */
  limit: queryWholeNumber('limit', CLUSTER_LIMIT_RANGE),
  /** Only the clusters after this name: the `next` of the previous page; "" is none. */
  after: z.string().max(MAX_CLUSTER_NAME, `after is at most ${MAX_CLUSTER_NAME} characters`).optional(),
});
export type ClusterListQuery = z.input<typeof clusterListQuerySchema>;

export const clusterListSchema = z.object({
  items: z.array(clusterViewSchema),
  /** How many clusters the manager has, whatever part of the list `items` is. */
  total: z.number(),
  /** The `after` of the next page; null when `items` reach the end of the list. */
  next: z.string().nullable(),
});
export type ClusterList = z.infer<typeof clusterListSchema>;

const NAME_REQUIRED = 'a name is required';
export const MAX_CLUSTER_DESCRIPTION = 1000;
const DESCRIPTION_RULE = `a description is text of at most ${MAX_CLUSTER_DESCRIPTION} characters`;
const FQDN_RULE = 'fqdn is a fully qualified DNS name such as api.prod.example.internal';
const ADDRESS_RULE = 'address is the IPv4 or IPv6 address the FQDN must resolve to';

/** A name's DNS-1123 rule, the tenant's, the FQDN's and the address's are the core's; null or "" is no FQDN, no address. */
export const clusterCreateSchema = z.object({
  name: z.string({ error: NAME_REQUIRED }),
  description: z.string({ error: DESCRIPTION_RULE }).max(MAX_CLUSTER_DESCRIPTION, DESCRIPTION_RULE).optional(),
  /** Default "default"; fixed once created (agent configs are signed for it). */
  tenant: z.string({ error: 'tenant: a value is required' }).optional(),
  /** Default development; another is an admin's choice. */
  profile: z.enum(profileNames, { error: `profile must be one of ${profileNames.join(', ')}` }).optional(),
  fqdn: z.string({ error: FQDN_RULE }).nullish(),
  address: z.string({ error: ADDRESS_RULE }).nullish(),
  /** Default kubernetes; fixed once created. */
  kind: z.enum(clusterKinds, { error: `kind must be one of ${clusterKinds.join(', ')}` }).optional(),
});
export type ClusterCreate = z.input<typeof clusterCreateSchema>;

/** A field a PATCH refuses: sent at all, it is invalid_field with the reason. */
const unchangeable = (reason: string) => z.never({ error: reason }).optional();

export const clusterPatchSchema = z.object({
  name: z.string({ error: NAME_REQUIRED }).optional(),
  description: z.string({ error: DESCRIPTION_RULE }).max(MAX_CLUSTER_DESCRIPTION, DESCRIPTION_RULE).optional(),
  /** null or "" removes it. */
  fqdn: z.string({ error: FQDN_RULE }).nullish(),
  address: z.string({ error: ADDRESS_RULE }).nullish(),
  profile: unchangeable('the profile is changed with PUT /api/v1/clusters/{id}/profile (admin)'),
  kind: unchangeable('the kind of a cluster cannot change'),
  tenant: unchangeable('the tenant of a cluster cannot change (agent configs are signed for it)'),
});
export type ClusterPatch = z.input<typeof clusterPatchSchema>;

export const clusterRouteSchemas = {
  'GET /api/v1/clusters': { query: clusterListQuerySchema, result: clusterListSchema },
  'POST /api/v1/clusters': { body: clusterCreateSchema, result: clusterViewSchema, status: 201 },
  'GET /api/v1/clusters/:id': { result: clusterViewSchema },
  'PATCH /api/v1/clusters/:id': { body: clusterPatchSchema, result: clusterViewSchema },
  /** approval_id: the approved request, where the cluster's profile wants four eyes; "" is none. */
  'DELETE /api/v1/clusters/:id': { query: z.object({ approval_id: z.string().optional() }), result: z.null() },
  'GET /api/v1/clusters/:id/agent': { result: agentStatusSchema },
} as const;

export type ClusterRoutes = RoutesOf<typeof clusterRouteSchemas>;
