// Components and commands: the desired components of a cluster and what its agent observes, the operations
// on them (each through the lifecycle gate), and the signed commands with their receipts.
import type { ManagedComponentSpec } from '../wire/protocol';
import type { PreflightRun } from './profiles';

export type { ManagedComponentSpec } from '../wire/protocol';

/** A ManagedComponent as the agent last found it in the cluster. */
export interface ObservedComponent {
  spec: unknown;
  status: unknown;
}

/** The desired state (generation and components, as signed), and what the agent last reported (null: nothing yet). */
export interface ComponentsView {
  cluster_id: string;
  generation: number;
  desired: Record<string, ManagedComponentSpec>;
  observed?: Record<string, ObservedComponent> | null;
  observed_at?: string | null;
}

export interface ComponentApplyRequest {
  name: string;
  spec: ManagedComponentSpec;
  /** Under a four-eyes profile: the approved request this operation spends. */
  approval_id?: string;
}

/** The operations of a component besides apply and delete. */
export type ComponentAction = 'stop' | 'start' | 'restart' | 'rollback';

export interface ComponentActionRequest {
  action: ComponentAction;
  approval_id?: string;
}

export type CommandState = 'queued' | 'delivered' | 'succeeded' | 'failed' | 'rejected';

export interface CommandReceipt {
  received_at: string;
  status: string;
  code: string | null;
  replica: string | null;
}

/** A signed command and its receipts, without its envelope (GET …/envelope has that). */
export interface CommandView {
  id: string;
  cluster_id: string;
  op: string;
  args: unknown;
  state: CommandState;
  code: string | null;
  result: unknown;
  requested_by: string;
  created_at: string;
  not_after: string;
  delivered_at: string | null;
  deliveries: number;
  completed_at: string | null;
  receipts: CommandReceipt[];
  /**
   * What the reader's role does not see: `result` (a journal read's text, for operators and admins only) or
   * `contents` (the files and units a plan writes) or `output` (what the programs a plan runs printed: those
   * tasks' output and message). Absent: the command is whole.
   */
  withheld?: ('result' | 'contents' | 'output')[];
}

/** An operation the gate let through: the command it signed, the action it was judged as, its preflight run. */
export interface OperationAccepted extends CommandView {
  action: string;
  preflight?: PreflightRun | null;
}

export interface CommandList {
  items: CommandView[];
}

export interface CommandRoutes {
  'GET /api/v1/clusters/:id/components': { result: ComponentsView };
  'POST /api/v1/clusters/:id/components': { body: ComponentApplyRequest; result: OperationAccepted };
  'DELETE /api/v1/clusters/:id/components/:name': { query: { approval_id?: string }; result: OperationAccepted };
  'POST /api/v1/clusters/:id/components/:name/actions': { body: ComponentActionRequest; result: OperationAccepted };
  'POST /api/v1/clusters/:id/inventory/report': { result: OperationAccepted };
  'GET /api/v1/commands': { query: { cluster_id?: string; limit?: number }; result: CommandList };
  'GET /api/v1/commands/:id': { result: CommandView };
  /** The signed envelope itself, for the agent's fallback inbox when the gateway cannot be reached. */
  'GET /api/v1/commands/:id/envelope': { result: unknown };
}
