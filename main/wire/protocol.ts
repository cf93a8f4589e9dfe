// The manager–agent protocol over the gateway: routes, operations, receipts and the documents they carry.
// Imported by both sides; imports nothing from either.
import type { SignedDocument, VerifyCode } from './envelope';

export const GATEWAY_PATHS = {
  commands: '/v1/cluster-agent/commands',
  report: '/v1/cluster-agent/report',
  receipts: '/v1/cluster-agent/receipts',
  /** A CSR in, a client certificate for the calling identity out (certificate-renewal.ts). */
  certificate: '/v1/cluster-agent/certificate',
} as const;

/** Headers an agent sends with every gateway request. */
export const AGENT_HEADERS = { replica: 'x-navin-replica', version: 'x-navin-agent-version' } as const;

export const LONG_POLL_MAX_S = 30;
/** The largest request body the gateway reads (413 beyond): agents send their receipts in batches under it. */
export const GATEWAY_MAX_BODY = 4 << 20;

export const OP_APPLY = 'managedcomponent.apply';
export const OP_DELETE = 'managedcomponent.delete';
export const OP_INVENTORY = 'inventory.report';
export type Operation = typeof OP_APPLY | typeof OP_DELETE | typeof OP_INVENTORY;
export const OPERATIONS: readonly Operation[] = [OP_APPLY, OP_DELETE, OP_INVENTORY];
/** Operations that change the cluster: refused offline, and with a blocked profile. */
export const SENSITIVE_OPERATIONS: ReadonlySet<string> = new Set([OP_APPLY, OP_DELETE]);

export type RejectionCode =
  VerifyCode | 'manager_unreachable' | 'profile_blocked' | 'op_unknown' | 'args_invalid' | 'desired_state_invalid';

export interface ManagedComponentSpec {
  component: string;
  version: string;
  replicas?: number;
  artifacts?: { name: string; image: string }[];
  resources?: { cpu?: string; memory?: string };
  /** Endpoints bound to the service: https://, tls://, http:// or tcp:// URLs. */
  endpoints?: { name: string; url: string }[];
  /** A sandbox (test) instance. */
  sandbox?: boolean;
  /** Changed to ask for a rolling restart (the kubectl rollout restart convention). */
  restartedAt?: string;
  config?: Record<string, unknown>;
}

/** The payload of a desired-state document: every component the cluster must have, signed as one. */
export interface DesiredStateBody {
  type: 'desired-state';
  target: string;
  tenant: string;
  namespace: string;
  generation: number;
  components: Record<string, ManagedComponentSpec>;
  issued_at: string;
}

export interface ApplyArgs {
  name: string;
  spec: ManagedComponentSpec;
  desired_state: SignedDocument;
}

export interface DeleteArgs {
  name: string;
  desired_state: SignedDocument;
}

export type ReceiptStatus = 'succeeded' | 'failed' | 'rejected';

export interface Receipt {
  command_id: string;
  status: ReceiptStatus;
  code?: RejectionCode | string;
  message?: string;
  result?: unknown;
  executed_at: string;
  replica: string;
  /** For nonce_replayed: the outcome of the first execution, so the manager keeps the original status. */
  original?: { status: ReceiptStatus; code?: string; result?: unknown; executed_at: string };
}

export interface CommandsResponse {
  commands: SignedDocument[];
}

export interface ReceiptsRequest {
  receipts: Receipt[];
}

export interface ReceiptsResponse {
  accepted: string[];
}

export interface ReportRequest {
  replica: string;
  agent_version: string;
  leader: boolean;
  inventory: unknown;
  components?: Record<string, unknown>;
}

/** What every agent config the manager signs carries, whichever agent (cluster or node) it is for. */
export interface AgentConfigCommon {
  type: 'agent-config';
  v: 1;
  key_id: string;
  cluster_id: string;
  /** The identity commands for this agent carry as their target. */
  target: string;
  tenant: string;
  gateway_url: string;
  server_name: string;
  trusted_key_ids: string[];
  /** key_id → base64url of the 32-byte Ed25519 public key, for every key the agent may trust. */
  trusted_keys: Record<string, string>;
  client_certificate_serial: string;
  issued_at: string;
  offline_after_s: number;
  redelivery_s: number;
  long_poll_s: number;
  clock_skew_s: number;
}

/** The payload of the agent config the manager signs for each cluster (the Secret's config.json). */
export interface AgentConfigBody extends AgentConfigCommon {
  namespace: string;
  lease_duration_s: number;
}

export const AGENT_LEASE_NAME = 'navin-cluster-agent';
export const AGENT_STATE_NAME = 'navin-cluster-agent-state';
/** The agent's identity Secret: the operator reads its manager.pem and config.json to re-verify the desired state. */
export const AGENT_IDENTITY_SECRET_NAME = 'navin-cluster-agent-identity';
