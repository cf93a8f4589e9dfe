// What the cluster agent's commands do: managedcomponent.apply and .delete (each carrying the cluster's whole
// signed desired state, which must verify, match the command and be newer than the one in force) and the
// read-only inventory.report.
import type { KubeConfig } from '@kubernetes/client-node';
import { verifyDocument, type SignedDocument } from '../main/wire/envelope';
import { readInventory } from '../main/wire/inventory';
import {
  OP_APPLY,
  OP_DELETE,
  OPERATIONS,
  OP_INVENTORY,
  SENSITIVE_OPERATIONS,
  type ApplyArgs,
  type DeleteArgs,
  type DesiredStateBody,
  type Receipt,
} from '../main/wire/protocol';
import type { CommandRunner, Executor, Prepared } from './commands';
import { sameSpec, type Components } from './components';
import type { AgentState, ConfigMapStateStore } from './state-store';

export interface ClusterExecutorOptions {
  state: ConfigMapStateStore;
  components: Components;
  kc: KubeConfig;
  onInventory: (inventory: unknown) => Promise<void>;
  onDesiredChanged: () => void;
}

export class ClusterExecutor implements Executor<AgentState> {
  readonly operations: readonly string[] = OPERATIONS;
  readonly sensitive = SENSITIVE_OPERATIONS;
  runner: CommandRunner<AgentState> | undefined;
  private readonly desired = new Map<string, DesiredStateBody>();

  constructor(private readonly o: ClusterExecutorOptions) {}

  /** Verifies a desired-state document carried by a command or read back from the state. */
  verifyDesired(doc: SignedDocument): DesiredStateBody | null {
    const v = verifyDocument(doc, this.runner!.verifyOptions('desired-state'));
    return v.ok ? (v.payload as unknown as DesiredStateBody) : null;
  }

  prepare(commandId: string, op: string, args: unknown): Prepared<AgentState> {
    if (op === OP_INVENTORY) return { ok: true };
    const a = args as ApplyArgs | DeleteArgs;
    const desired = a?.desired_state ? this.verifyDesired(a.desired_state) : null;
    const doc = this.o.state.state.desired_state;
    const current = doc ? this.verifyDesired(doc) : null;
    const consistent =
      desired !== null &&
      typeof a.name === 'string' &&
      (op === OP_APPLY ? sameSpec(desired.components[a.name], (a as ApplyArgs).spec) : !(a.name in desired.components)) &&
      (!current || desired.generation > current.generation);
    if (!consistent)
      return {
        ok: false,
        code: 'desired_state_invalid',
        message: 'the desired state carried by the command does not verify, does not match it, or is older than the one in force',
      };
    this.desired.set(commandId, desired);
    return { ok: true, claim: (s) => void (s.desired_state = a.desired_state) };
  }

  async execute(commandId: string, op: string, args: unknown): Promise<unknown> {
    if (op === OP_INVENTORY) {
      const inventory = await readInventory(this.o.kc);
      // Read-only work goes on offline: the report waits for the manager, the receipt carries the summary.
      const reported = await this.o.onInventory(inventory).then(
        () => true,
        () => false,
      );
      return { nodes: inventory.nodes.length, kubernetes_version: inventory.kubernetes_version, reported };
    }
    const desired = this.desired.get(commandId)!;
    this.desired.delete(commandId);
    const a = args as ApplyArgs | DeleteArgs;
    if (op === OP_APPLY)
      return { action: await this.o.components.apply(a.name, (a as ApplyArgs).spec, desired.generation), generation: desired.generation };
    return { action: await this.o.components.remove(a.name), generation: desired.generation };
  }

  afterExecuted(_commandId: string, op: string, _receipt: Receipt): void {
    if (op === OP_APPLY || op === OP_DELETE) this.o.onDesiredChanged();
  }
}
