// Operators' intents become signed commands here: each apply or delete also signs the cluster's whole new
// desired state, so the agent can keep enforcing it offline. Receipts close a command exactly once.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import type { CoreEvents } from '../events';
import { ConflictError, CoreError, found, NotFoundError, ValidationError } from '../errors';
import type { Keyring } from '../keys/keyring';
import type { Store } from '../store/store';
import type { CommandRecord } from './commands-tables';
import { nameProblem } from '../clusters/names';
import { DEFAULT_NAMESPACE } from '../kubernetes/names';
import { signDocument } from '../../wire/envelope';
import { OP_APPLY, OP_DELETE, OP_INVENTORY, OPERATIONS, type ManagedComponentSpec } from '../../wire/protocol';
import { OP_CA_TRUST, type CaTrustArgs } from '../../wire/ca-trust';
import type { ReceivedReceipt } from '../../wire/agent-requests';
import { checkComponentSpec } from './component-spec';
import { closeWithReceipt, deliverDue, outcomeOf, QueuedListeners, signCommand } from './command-pipeline';
import { visibleTo } from './command-visibility';
import type { Role } from '../accounts/accounts-tables';
import type { CommandView, ComponentsView } from '../../contract/commands';

export const COMMAND_VALIDITY_S = 15 * 60;

export class ForbiddenReceiptError extends CoreError {
  constructor(commandId: string) {
    super('forbidden', `command ${commandId} does not belong to this cluster`);
  }
}

export type { CommandView, ComponentsView };

/** Commands committed per transaction in a fan-out: bounded memory and write-lock time, few fsyncs. */
export const FAN_OUT_CHUNK = 500;

export class Commands {
  private readonly queued = new QueuedListeners();

  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'clusterAccess' | 'clusters' | 'commands'>,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
    private readonly events: CoreEvents,
  ) {}

  /** Called when a cluster has something new to deliver (the gateway's long polls listen). */
  onQueued(listener: (clusterId: string) => void): () => void {
    return this.queued.add(listener);
  }

  /**
   * Signs and queues a command. `opts.beforeCommit` runs inside the same transaction once the command id is
   * known (the lifecycle uses an approval there, so an approval is spent only by a command that exists).
   */
  issue(
    clusterId: string,
    op: unknown,
    args: unknown,
    actor: string,
    opts: { beforeCommit?: (commandId: string) => void; action?: string; expectGeneration?: number } = {},
  ): CommandRecord {
    if (typeof op !== 'string' || !OPERATIONS.includes(op as never))
      throw new ValidationError('op', `op must be one of ${OPERATIONS.join(', ')}`);
    const a = (typeof args === 'object' && args !== null && !Array.isArray(args) ? args : {}) as Record<string, unknown>;
    const record = this.store.tx(() => this.tables.commands.get(this.issueInTx(clusterId, op as string, a, actor, opts))!);
    this.queued.wake(clusterId);
    return record;
  }

  /**
   * A manager CA rotation's trust update for a cluster's agent (keys/ca-rotation.ts): not an operator's op, so not
   * taken by issue(). `beforeCommit` records it in the same transaction.
   */
  issueCaTrust(clusterId: string, args: CaTrustArgs, actor: string, beforeCommit: (commandId: string) => void): CommandRecord {
    const record = this.store.tx(() =>
      this.tables.commands.get(this.issueInTx(clusterId, OP_CA_TRUST, { ...args }, actor, { beforeCommit }))!,
    );
    this.queued.wake(clusterId);
    return record;
  }

  /**
   * One operation to many clusters (a fan-out): the same as issue() for each, each command signed for its own
   * target with its own nonce and audited, committed a chunk at a time so memory and the write lock stay bounded
   * whatever the count. A cluster that refuses (missing, of the other kind) is reported, the others go on.
   */
  issueToClusters(
    clusterIds: readonly string[],
    op: unknown,
    args: unknown,
    actor: string,
    opts: { chunk?: number; onChunk?: (progress: { done: number; total: number }) => void } = {},
  ): { issued: number; refused: { cluster_id: string; code: string; message: string }[] } {
    if (typeof op !== 'string' || !OPERATIONS.includes(op as never))
      throw new ValidationError('op', `op must be one of ${OPERATIONS.join(', ')}`);
    const a = (typeof args === 'object' && args !== null && !Array.isArray(args) ? args : {}) as Record<string, unknown>;
    const refused: { cluster_id: string; code: string; message: string }[] = [];
    let issued = 0;
    const chunk = opts.chunk ?? FAN_OUT_CHUNK;
    for (let i = 0; i < clusterIds.length; i += chunk) {
      const ids = clusterIds.slice(i, i + chunk);
      const done: string[] = [];
      this.store.tx(() => {
        for (const id of ids) {
          try {
            // A refusal (cluster missing or of the other kind, a bad spec) comes before any write of that cluster's.
            this.issueInTx(id, op, a, actor, {});
            done.push(id);
          } catch (error) {
            if (!(error instanceof CoreError)) throw error;
            refused.push({ cluster_id: id, code: error.code, message: error.message });
          }
        }
      });
      issued += done.length;
      for (const id of done) this.queued.wake(id);
      opts.onChunk?.({ done: Math.min(i + chunk, clusterIds.length), total: clusterIds.length });
    }
    return { issued, refused };
  }

  /** A command signed, queued and audited, inside the caller's transaction; its id. Refusals throw before any write. */
  private issueInTx(
    clusterId: string,
    op: string,
    a: Record<string, unknown>,
    actor: string,
    opts: { beforeCommit?: (commandId: string) => void; action?: string; expectGeneration?: number },
  ): string {
    const cluster = found(this.tables.clusters.get(clusterId), 'cluster', clusterId);
    if (cluster.kind === 'hosts')
      throw new ConflictError('cluster_kind_mismatch', 'a hosts cluster runs plans on its hosts, not ManagedComponent commands');
    const signer = this.keyring.active();
    const now = this.clock.now();
    let signedArgs: Record<string, unknown> = {};
    if (op === OP_APPLY || op === OP_DELETE) {
      const name = a.name;
      const problem = nameProblem(name, 63);
      if (problem) throw new ValidationError('name', `component name: ${problem}`);
      const current = this.tables.commands.desiredState(clusterId) ?? { generation: 0, components: {} };
      // A plan made before an await (profile, preflight) must not overwrite a change that landed meanwhile.
      if (opts.expectGeneration !== undefined && current.generation !== opts.expectGeneration) {
        throw new ConflictError(
          'desired_state_changed',
          `the desired state of this cluster changed while the operation was checked (generation ${opts.expectGeneration} → ${current.generation}); look at it again and retry`,
        );
      }
      const components = { ...(current.components as Record<string, ManagedComponentSpec>) };
      let spec: ManagedComponentSpec | undefined;
      if (op === OP_APPLY) {
        spec = checkComponentSpec(a.spec);
        components[name as string] = spec;
      } else {
        if (!((name as string) in components))
          throw new CoreError('not_found', `component ${name as string} is not in the desired state of this cluster`);
        delete components[name as string];
      }
      const generation = current.generation + 1;
      const desired_state = signDocument(
        {
          type: 'desired-state',
          v: 1,
          target: clusterId,
          tenant: cluster.tenant,
          namespace: this.tables.clusterAccess.access(clusterId)?.namespace ?? DEFAULT_NAMESPACE,
          generation,
          components,
          issued_at: now.toISOString(),
        },
        signer,
      );
      this.tables.commands.setDesiredState(clusterId, generation, components, now.toISOString());
      signedArgs = op === OP_APPLY ? { name, spec, desired_state } : { name, desired_state };
    } else if (op === OP_CA_TRUST) {
      signedArgs = a;
    } else if (op !== OP_INVENTORY) {
      throw new ValidationError('op', `unknown op ${op}`);
    }
    const signed = signCommand(signer, {
      tenant: cluster.tenant,
      target: clusterId,
      op,
      args: signedArgs,
      now,
      validitySeconds: COMMAND_VALIDITY_S,
    });
    this.tables.commands.insert({
      id: signed.command_id,
      cluster_id: clusterId,
      op,
      args: signedArgs,
      envelope: signed.envelope,
      requested_by: actor,
      created_at: now.toISOString(),
      not_after: signed.not_after,
    });
    opts.beforeCommit?.(signed.command_id);
    this.store.audit.append({
      actor,
      action: `command.${op}`,
      cluster_id: clusterId,
      target: (a.name as string | undefined) ?? null,
      details: { command_id: signed.command_id, ...(opts.action ? { action: opts.action } : {}) },
    });
    return signed.command_id;
  }

  /**
   * Hands the due commands to the agent and marks them delivered (redelivered if not acknowledged in time);
   * `live` judges the asking certificate in the same transaction (deliverDue says why).
   */
  deliver(clusterId: string, redeliverAfterS: number, live?: () => boolean): unknown[] {
    const delivered = deliverDue(
      this.store,
      this.tables,
      this.clock,
      redeliverAfterS,
      (before, now) => this.tables.commands.due(clusterId, before, now),
      live,
    );
    if (delivered.length > 0) this.events.emit('command.changed', { cluster_id: clusterId });
    return delivered;
  }

  /**
   * Records a receipt. The first final receipt sets the status; later ones are kept but change nothing. One
   * transaction (one fsync) judges the receipt and records it, or records the refusal in the audit log.
   */
  recordReceipt(clusterId: string, receipt: ReceivedReceipt, actor: string): { changed: boolean } {
    const recorded = this.store.tx(() => {
      const owner = this.tables.commands.owner(receipt.command_id);
      if (!owner || owner.cluster_id !== clusterId || owner.host_id) {
        this.store.audit.append({
          actor,
          action: 'gateway.receipt_refused',
          cluster_id: clusterId,
          target: receipt.command_id,
          details: { reason: owner ? 'other_cluster' : 'unknown_command', command_cluster: owner?.cluster_id ?? null },
        });
        return undefined;
      }
      const outcome = outcomeOf(receipt);
      const changed = closeWithReceipt(
        this.tables,
        this.clock.now().toISOString(),
        { id: receipt.command_id, cluster_id: clusterId },
        receipt,
        {
          body: receipt,
          result: outcome.result ?? null,
        },
      );
      if (changed)
        this.store.audit.append({
          actor,
          action: 'command.completed',
          cluster_id: clusterId,
          target: receipt.command_id,
          details: { status: outcome.status, code: outcome.code ?? null },
        });
      return { changed };
    });
    if (!recorded) throw new ForbiddenReceiptError(receipt.command_id);
    // Announced here, whoever hands the receipt in: what waits on a command's end (its console, a service
    // operation) learns of it from the domain that recorded it, not from the transport that carried it.
    this.events.emit('command.changed', { id: receipt.command_id, cluster_id: clusterId });
    return recorded;
  }

  /** A cluster's desired components (as signed) beside what its agent last reported observing (null: nothing yet). */
  components(clusterId: string): ComponentsView {
    if (!this.tables.clusters.get(clusterId)) throw new NotFoundError('cluster', clusterId);
    const desired = this.tables.commands.desiredState(clusterId) ?? { generation: 0, components: {} };
    const snapshot = this.tables.clusterAccess.latestAgentSnapshot(clusterId);
    const observed = (snapshot?.data as { observed_components?: ComponentsView['observed'] } | undefined)?.observed_components ?? null;
    return {
      cluster_id: clusterId,
      generation: desired.generation,
      desired: desired.components as Record<string, ManagedComponentSpec>,
      observed,
      observed_at: observed ? snapshot!.taken_at : null,
    };
  }

  list(clusterId?: string, limit?: number): CommandView[] {
    return this.tables.commands.list({ cluster_id: clusterId, limit }).map((c) => this.view(c));
  }

  /** The newest commands as `reader` may see them (command-visibility.ts). */
  listFor(reader: Role, clusterId?: string, limit?: number): CommandView[] {
    return this.list(clusterId, limit).map((c) => visibleTo(c, reader));
  }

  /** One command as `reader` may see it (command-visibility.ts). */
  read(id: string, reader: Role): CommandView {
    return visibleTo(this.get(id), reader);
  }

  get(id: string): CommandView {
    const c = found(this.tables.commands.get(id), 'command', id);
    return this.view(c);
  }

  envelope(id: string): unknown {
    const c = found(this.tables.commands.get(id), 'command', id);
    return c.envelope;
  }

  private view(c: CommandRecord): CommandView {
    const { envelope: _e, ...rest } = c;
    return {
      ...rest,
      receipts: this.tables.commands
        .receipts(c.id)
        .map((r) => ({ received_at: r.received_at, status: r.status, code: r.code, replica: r.replica })),
    };
  }
}
