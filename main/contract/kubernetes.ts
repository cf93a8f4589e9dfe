// The import path of a Kubernetes cluster: import RBAC, registration by kubeconfig, inventory, the agent
// identity and its manifests. Paths and queries as the spec names them. Declared schema first: the schemas judge
// a request's JSON shape; what needs the manager's Node side or its store (a kubeconfig parsed, a namespace's
// DNS rule, a gateway URL, an image pinned by digest) the core judges, and it returns these types.
import { z } from './zod';
import type { RoutesOf } from './route';
import type { Inventory } from '../wire/inventory';

export type { Inventory, NodeInventory } from '../wire/inventory';

/**
 * An agent's config as the manager signed it: the payload (its type, version and signing key, the agent's
 * gateway, trusted keys and timings beside) and the Ed25519 signature, base64url, over its canonical JSON.
 */
export const agentConfigDocumentSchema = z.object({
  payload: z.looseObject({ type: z.literal('agent-config'), v: z.literal(1), key_id: z.string() }),
  signature: z.string(),
});

export const nodeInventorySchema = z.object({
  name: z.string(),
  roles: z.array(z.string()),
  kubelet_version: z.string(),
  os_image: z.string(),
  operating_system: z.string(),
  architecture: z.string(),
  cpu: z.string(),
  memory: z.string(),
  allocatable: z.object({ cpu: z.string(), memory: z.string(), pods: z.string() }),
  ready: z.boolean(),
});

/** What the manager (import identity) or the agent read of a cluster through the Kubernetes API. */
export const inventorySchema = z.object({
  kubernetes_version: z.string(),
  nodes: z.array(nodeInventorySchema),
  namespaces: z.array(z.string()),
  crds: z.array(z.string()),
  storage_classes: z.array(z.object({ name: z.string(), provisioner: z.string(), default: z.boolean() })),
  default_storage_class: z.string().nullable(),
  ingress_classes: z.array(z.object({ name: z.string(), controller: z.string(), default: z.boolean() })),
  default_ingress_class: z.string().nullable(),
  coredns: z.object({ replicas: z.number(), ready_replicas: z.number() }).nullable(),
}) satisfies z.ZodType<Inventory>;

/** The namespace the agent runs in when a registration names none. */
export const DEFAULT_NAMESPACE = 'navin-platform';
/** An image reference pinned by digest (`<registry>/<name>@sha256:<64 hex digits>`), never by tag alone: the core's
 * rule for the agent's image, the console's for a component's artifacts. */
export const IMAGE_BY_DIGEST =
  /^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*(:[\w][\w.-]{0,127})?@sha256:[a-f0-9]{64}$/;

/** A kubeconfig's text: the import identity's, whose token the manager seals at rest. */
const KUBECONFIG_RULE = 'kubeconfig is required (the YAML text)';

export const registrationRequestSchema = z.object({
  kubeconfig: z.string({ error: KUBECONFIG_RULE }).refine((k) => k.trim() !== '', KUBECONFIG_RULE),
  /** Where the agent will run; null, "" or absent is navin-platform. Its DNS-1123 rule is the core's. */
  namespace: z.string({ error: 'namespace: a value is required' }).nullish(),
});
export type RegistrationRequest = z.input<typeof registrationRequestSchema>;

export const registrationResultSchema = z.object({
  cluster_id: z.string(),
  server: z.string(),
  namespace: z.string(),
  kubernetes_version: z.string(),
  inventory: inventorySchema,
  taken_at: z.string(),
});
export type RegistrationResult = z.infer<typeof registrationResultSchema>;

export const inventorySources = ['import', 'agent'] as const;

/** The latest inventory: read with the import identity, or reported by the agent. */
export const inventorySnapshotSchema = z.object({
  cluster_id: z.string(),
  taken_at: z.string(),
  source: z.enum(inventorySources),
  inventory: inventorySchema,
});
export type InventorySnapshot = z.infer<typeof inventorySnapshotSchema>;

const OFFLINE_AFTER_RULE = 'offline_after_s is a whole number of seconds from 5 to 86400';

/**
 * How an agent reaches its manager: the gateway's URL (its rules — https, a host and a port only — are the
 * core's), the TLS server name it expects (default: the URL's host) and how long without contact it is offline.
 * `approval_id`: the approved request, where the cluster's profile wants four eyes (a re-issue cuts the running
 * agent off); null or "" is none.
 */
export const agentIdentityRequestSchema = z.object({
  gateway_url: z.string({ error: 'gateway_url is required, e.g. https://manager.example:8462' }),
  server_name: z.string({ error: 'server_name is a DNS name' }).optional(),
  offline_after_s: z
    .number({ error: OFFLINE_AFTER_RULE })
    .int(OFFLINE_AFTER_RULE)
    .min(5, OFFLINE_AFTER_RULE)
    .max(86_400, OFFLINE_AFTER_RULE)
    .optional(),
  approval_id: z.string({ error: 'approval_id is the id of an approved request' }).nullish(),
});
export type AgentIdentityRequest = z.input<typeof agentIdentityRequestSchema>;

export const identityFileNames = ['config.json', 'manager.pem', 'tls.crt', 'tls.key', 'ca.crt'] as const;
export type IdentityFileName = (typeof identityFileNames)[number];

/** The texts of an identity's files; tls.key is handed out once and never retrievable again. */
export const identityFilesSchema = z.record(z.enum(identityFileNames), z.string());

export const agentIdentitySchema = z.object({
  cluster_id: z.string(),
  serial: z.string(),
  not_after: z.string(),
  revoked_serials: z.array(z.string()),
  /** The files of the agent's Secret. */
  files: identityFilesSchema,
  config: agentConfigDocumentSchema,
  secret_command: z.string(),
});
export type AgentIdentity = z.infer<typeof agentIdentitySchema>;

/** The media type of the YAML the import path serves. */
export const YAML_MEDIA = 'application/yaml; charset=utf-8';

export const kubernetesRouteSchemas = {
  'GET /api/v1/clusters/:id/kubernetes/import-rbac': {
    query: z.object({ namespace: z.string().optional() }),
    result: z.string(),
    media: YAML_MEDIA,
  },
  'POST /api/v1/clusters/:id/kubernetes/registration': { body: registrationRequestSchema, result: registrationResultSchema },
  'GET /api/v1/clusters/:id/inventory': { result: inventorySnapshotSchema },
  'POST /api/v1/clusters/:id/inventory/refresh': { result: inventorySnapshotSchema },
  'POST /api/v1/clusters/:id/kubernetes/agent': { body: agentIdentityRequestSchema, result: agentIdentitySchema, status: 201 },
  /** `image`: the agent's image, pinned by digest (the core's rule). */
  'GET /api/v1/clusters/:id/kubernetes/agent/manifests': {
    query: z.object({ image: z.string().optional() }),
    result: z.string(),
    media: YAML_MEDIA,
  },
} as const;

export type KubernetesRoutes = RoutesOf<typeof kubernetesRouteSchemas>;
