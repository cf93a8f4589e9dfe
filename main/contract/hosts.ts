// Hosts of clusters of kind hosts: each host with what its node agent reported, the host's node agent identity
// (and the commands that install it), the signed plans and facts reports sent to it, a plan task by task.
import type { HostFacts, ManagedEntry } from '../wire/node-agent';
import type { SignedDocument } from '../wire/payloads';
import type { PlanTask, TaskStatus } from '../wire/plan';
import type { CommandList, CommandState, CommandView } from './commands';
import type { IdentityFileName } from './kubernetes';

export type { HostFacts, ManagedEntry } from '../wire/node-agent';
export type { PlanTask, TaskKind, TaskStatus } from '../wire/plan';

export type HostState = 'pending' | 'connected' | 'offline' | 'revoked';

/** What the gateway last saw of a host's node agent. */
export interface HostAgentStatus {
  connected: boolean;
  last_seen: string | null;
  offline_since: string | null;
  agent_version: string | null;
  certificate_serial: string | null;
}

export interface HostView {
  id: string;
  cluster_id: string;
  name: string;
  address: string;
  /** The facts the agent last reported (null: none yet) and when. */
  facts: HostFacts | null;
  facts_at: string | null;
  /** The files and units the agent manages for the manager, each with its sha256. */
  managed: { files: Record<string, ManagedEntry>; units: Record<string, ManagedEntry> } | null;
  created_at: string;
  state: HostState;
  agent: HostAgentStatus;
}

export interface HostList {
  items: HostView[];
}

export interface HostCreate {
  /** One DNS label. */
  name: string;
  /** The IPv4 or IPv6 address the host is reached at. */
  address: string;
}

export interface HostAgentRequest {
  gateway_url: string;
  server_name?: string;
  offline_after_s?: number;
  /** The approved request's id, where the cluster's profile wants four eyes (a re-issue cuts the running agent off). */
  approval_id?: string;
}

export interface HostIdentity {
  host_id: string;
  serial: string;
  not_after: string;
  revoked_serials: string[];
  /** The files of the identity folder; tls.key is handed out once and never retrievable again. */
  files: Record<IdentityFileName, string>;
  config: SignedDocument;
  identity_dir: string;
  package_file: string;
  /** What an administrator runs on the host, in the folder holding the package and the five files. */
  install_commands: string[];
}

/** A task as sent: the manager fills in the sha256 of inline contents (and refuses one that does not match). */
export type PlanTaskRequest = PlanTask extends infer T
  ? T extends { sha256: string }
    ? Omit<T, 'sha256'> & { sha256?: string }
    : T
  : never;

export interface PlanRequest {
  title?: string;
  tasks: PlanTaskRequest[];
}

export interface PlanTaskView {
  index: number;
  id: string;
  kind: string;
  title: string | null;
  status: TaskStatus;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  code: string | null;
  message: string | null;
  output: Record<string, unknown> | null;
  /** The agent died during this task and ran it again after its restart. */
  resumed: boolean;
}

export interface PlanView {
  command_id: string;
  host_id: string;
  state: CommandState;
  code: string | null;
  title: string | null;
  total: number;
  succeeded: number;
  failed_task: string | null;
  tasks: PlanTaskView[];
  /** `output`: below an operator, the tasks that run a program come without their output and message. */
  withheld?: 'output'[];
}

export interface HostRoutes {
  'GET /api/v1/clusters/:id/hosts': { result: HostList };
  'POST /api/v1/clusters/:id/hosts': { body: HostCreate; result: HostView };
  'GET /api/v1/hosts/:host_id': { result: HostView };
  'DELETE /api/v1/hosts/:host_id': { query: { approval_id?: string }; result: null };
  'POST /api/v1/hosts/:host_id/agent': { body: HostAgentRequest; result: HostIdentity };
  /** A raw plan (admin); refused raw_plan_refused under a four-eyes profile, profile_blocked while the profile is blocked. */
  'POST /api/v1/hosts/:host_id/plans': { body: PlanRequest; result: CommandView };
  'POST /api/v1/hosts/:host_id/facts/report': { result: CommandView };
  'GET /api/v1/hosts/:host_id/commands': { query: { limit?: number }; result: CommandList };
  'GET /api/v1/commands/:id/plan': { result: PlanView };
}
