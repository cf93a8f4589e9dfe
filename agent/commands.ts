// Runs one signed command exactly once: verify it (trust core codes), refuse sensitive work while offline,
// claim its nonce in the state ConfigMap, execute, and keep its receipt there until the manager has it.
// A command already run is answered nonce_replayed with the original result.
import type { KubeConfig } from '@kubernetes/client-node';
import { verifyDocument, type SignedDocument } from '../main/wire/envelope';
import { nodeEd25519 } from '../main/wire/ed25519-node';
import {
  OP_APPLY,
  OP_DELETE,
  OP_INVENTORY,
  SENSITIVE_OPERATIONS,
  type ApplyArgs,
  type DeleteArgs,
  type DesiredStateBody,
  type Receipt,
} from '../main/wire/protocol';
import { readInventory } from '../main/wire/inventory';
import { sameSpec, type Components } from './components';
import type { Identity } from './identity';
import { log } from './log';
import { StateNonces, type StateStore } from './state-store';

export interface CommandRunnerOptions {
  identity: Identity;
  state: StateStore;
  components: Components;
  kc: KubeConfig;
  replica: string;
  isOffline: () => boolean;
  onInventory: (inventory: unknown) => Promise<void>;
  onDesiredChanged: () => void;
}

export class CommandRunner {
  constructor(private readonly o: CommandRunnerOptions) {}

  private receipt(commandId: string, status: Receipt['status'], extra: Partial<Receipt> = {}): Receipt {
    return { command_id: commandId, status, executed_at: new Date().toISOString(), replica: this.o.replica, ...extra };
  }

  /** Verifies a desired-state document carried by a command or read back from the state. */
  verifyDesired(doc: SignedDocument): DesiredStateBody | null {
    const { config, trustedKeys } = this.o.identity;
    const v = verifyDocument(doc, {
      impl: nodeEd25519,
      trustedKeys,
      expectedType: 'desired-state',
      expectedTarget: config.cluster_id,
      expectedTenant: config.tenant,
      clockSkewSeconds: config.clock_skew_s,
    });
    return v.ok ? (v.payload as unknown as DesiredStateBody) : null;
  }

  /** Returns the receipt to send; never throws for a bad command. */
  async run(input: unknown, source: 'gateway' | 'inbox'): Promise<Receipt | null> {
    const { config, trustedKeys } = this.o.identity;
    const commandId = peekCommandId(input);
    if (!commandId) {
      log('command.refused', { source, code: 'malformed' }, 'warn');
      return null;
    }
    await this.o.state.load();
    const nonces = new StateNonces(this.o.state);
    const v = verifyDocument(input, {
      impl: nodeEd25519,
      trustedKeys,
      expectedType: 'command',
      expectedTarget: config.cluster_id,
      expectedTenant: config.tenant,
      clockSkewSeconds: config.clock_skew_s,
      nonceStore: nonces,
    });
    if (!v.ok) {
      log('command.refused', { source, command_id: commandId, code: v.code }, 'warn');
      const original = this.o.state.state.receipts[commandId];
      if (v.code === 'nonce_replayed' && original) {
        return this.receipt(commandId, 'rejected', {
          code: 'nonce_replayed',
          message: 'this command was already executed',
          original: { status: original.status, code: original.code, result: original.result, executed_at: original.executed_at },
        });
      }
      return this.receipt(commandId, 'rejected', { code: v.code, message: v.message });
    }
    const p = v.payload as unknown as { command_id: string; nonce: string; op: string; args: unknown };
    log('command.verified', { source, command_id: commandId, op: p.op });
    if (SENSITIVE_OPERATIONS.has(p.op) && this.o.isOffline()) {
      log('command.refused', { source, command_id: commandId, code: 'manager_unreachable' }, 'warn');
      const refused = this.receipt(commandId, 'rejected', {
        code: 'manager_unreachable',
        message: 'the manager is unreachable: sensitive operations wait for it to come back',
      });
      // The refusal is this command's one answer: its nonce is used up, so a redelivery on the manager's return
      // gets nonce_replayed with this refusal as the original outcome, never a late execution.
      await this.o.state.update((s) => {
        for (const [n, until] of nonces.pending) s.nonces[n] = until;
        s.receipts[commandId] ??= refused;
        if (!s.unsent.includes(commandId)) s.unsent.push(commandId);
      });
      return refused;
    }
    let desired: DesiredStateBody | null = null;
    if (p.op === OP_APPLY || p.op === OP_DELETE) {
      const args = p.args as ApplyArgs | DeleteArgs;
      desired = args?.desired_state ? this.verifyDesired(args.desired_state) : null;
      const current = this.o.state.state.desired_state ? this.verifyDesired(this.o.state.state.desired_state) : null;
      const consistent =
        desired !== null &&
        typeof args.name === 'string' &&
        (p.op === OP_APPLY ? sameSpec(desired.components[args.name], (args as ApplyArgs).spec) : !(args.name in desired.components)) &&
        (!current || desired.generation > current.generation);
      if (!consistent) {
        log('command.refused', { source, command_id: commandId, code: 'desired_state_invalid' }, 'warn');
        return this.receipt(commandId, 'rejected', {
          code: 'desired_state_invalid',
          message: 'the desired state carried by the command does not verify, does not match it, or is older than the one in force',
        });
      }
    } else if (p.op !== OP_INVENTORY) {
      return this.receipt(commandId, 'rejected', { code: 'op_unknown', message: `unknown operation ${p.op}` });
    }
    // Claim the nonce (and the new desired state) before acting: two replicas cannot both claim it.
    await this.o.state.update((s) => {
      for (const [n, until] of nonces.pending) s.nonces[n] = until;
      if (desired) s.desired_state = (p.args as ApplyArgs).desired_state;
    });
    let receipt: Receipt;
    try {
      receipt = this.receipt(commandId, 'succeeded', { result: await this.execute(p.op, p.args, desired) });
    } catch (error) {
      receipt = this.receipt(commandId, 'failed', { code: 'execution_failed', message: (error as Error).message });
    }
    await this.o.state.update((s) => {
      s.receipts[commandId] = receipt;
      if (!s.unsent.includes(commandId)) s.unsent.push(commandId);
    });
    log('command.executed', { source, command_id: commandId, op: p.op, status: receipt.status });
    if (process.env.NAVIN_AGENT_FAILPOINT === 'after-execute') {
      // A fault-injection point for the HA tests: die after running a command, before its receipt is sent.
      log('failpoint.exit', { command_id: commandId }, 'warn');
      process.exit(137);
    }
    if (desired) this.o.onDesiredChanged();
    return receipt;
  }

  private async execute(op: string, args: unknown, desired: DesiredStateBody | null): Promise<unknown> {
    if (op === OP_INVENTORY) {
      const inventory = await readInventory(this.o.kc);
      // Read-only work goes on offline: the report waits for the manager, the receipt carries the summary.
      const reported = await this.o.onInventory(inventory).then(
        () => true,
        () => false,
      );
      return { nodes: inventory.nodes.length, kubernetes_version: inventory.kubernetes_version, reported };
    }
    const a = args as ApplyArgs | DeleteArgs;
    if (op === OP_APPLY)
      return { action: await this.o.components.apply(a.name, (a as ApplyArgs).spec, desired!.generation), generation: desired!.generation };
    return { action: await this.o.components.remove(a.name), generation: desired!.generation };
  }
}

function peekCommandId(input: unknown): string | undefined {
  try {
    const doc = typeof input === 'string' ? (JSON.parse(input) as unknown) : input;
    const id = (doc as { payload?: { command_id?: unknown } })?.payload?.command_id;
    return typeof id === 'string' && id.length > 0 && id.length <= 128 ? id : undefined;
  } catch {
    return undefined;
  }
}
