// The import path of a Kubernetes cluster: import RBAC, registration by kubeconfig, inventory, the agent
// identity and its manifests. Paths and queries as the spec names them.
import type { Inventory } from '../wire/inventory';
import type { SignedDocument } from '../wire/payloads';

export type { Inventory, NodeInventory } from '../wire/inventory';

export interface RegistrationRequest {
  kubeconfig: string;
  namespace?: string;
}

export interface RegistrationResult {
  cluster_id: string;
  server: string;
  namespace: string;
  kubernetes_version: string;
  inventory: Inventory;
  taken_at: string;
}

/** The latest inventory: read with the import identity, or reported by the agent. */
export interface InventorySnapshot {
  cluster_id: string;
  taken_at: string;
  source: 'import' | 'agent';
  inventory: Inventory;
}

export interface AgentIdentityRequest {
  gateway_url: string;
  server_name?: string;
  offline_after_s?: number;
  /** The approved request's id, where the cluster's profile wants four eyes (a re-issue cuts the running agent off). */
  approval_id?: string;
}

export type IdentityFileName = 'config.json' | 'manager.pem' | 'tls.crt' | 'tls.key' | 'ca.crt';

export interface AgentIdentity {
  cluster_id: string;
  serial: string;
  not_after: string;
  revoked_serials: string[];
  /** The texts of the Secret's files; tls.key is handed out once and never retrievable again. */
  files: Record<IdentityFileName, string>;
  config: SignedDocument;
  secret_command: string;
}

export interface KubernetesRoutes {
  'GET /api/v1/clusters/:id/kubernetes/import-rbac': { query: { namespace?: string }; result: string };
  'POST /api/v1/clusters/:id/kubernetes/registration': { body: RegistrationRequest; result: RegistrationResult };
  'GET /api/v1/clusters/:id/inventory': { result: InventorySnapshot };
  'POST /api/v1/clusters/:id/inventory/refresh': { result: InventorySnapshot };
  'POST /api/v1/clusters/:id/kubernetes/agent': { body: AgentIdentityRequest; result: AgentIdentity };
  'GET /api/v1/clusters/:id/kubernetes/agent/manifests': { query: { image?: string }; result: string };
}
