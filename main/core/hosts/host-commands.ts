// Signed commands for one host's node agent (target = the host id): plans of tasks, journal reads, drift scans
// and facts reports, signed and queued here (an upgrade's rollback sealed now, queued later if needed). What the
// agent sends back is recorded by host-agent-exchange.ts; a plan's view is host-plan-view.ts.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import { ValidationError } from '../errors';
import type { Keyring } from '../keys/keyring';
import type { Commands, CommandView } from '../commands/commands';
import type { CoreEvents } from '../events';
import { requiresFourEyes } from '../profiles/profile-rules';
import type { Profiles } from '../profiles/profiles';
import type { Role } from '../accounts/accounts-tables';
import { TEXT_DROPPED } from '../commands/journal-text';
import { QueuedListeners, signCommand } from '../commands/command-pipeline';
import type { SealedPlan } from '../services/services-tables';
import type { Store } from '../store/store';
import { isManagedUnit, OP_DRIFT_SCAN, OP_FACTS_REPORT, OP_JOURNAL_TAIL, OP_PLAN_EXECUTE } from '../../wire/node-agent';
import type { PlanArgs } from '../../wire/plan';
import { OP_CA_TRUST, type CaTrustArgs } from '../../wire/ca-trust';
import type { HostReport, PlanProgress, ReceivedReceipt } from '../../wire/agent-requests';
import type { CheckOutcome } from '../../wire/service-checks';
import { HostAgentExchange } from './host-agent-exchange';
import { checkedPlan, rawPlanRefused } from './host-plan-checks';
import { commandEnded, planView, type PlanView } from './host-plan-view';
import type { Hosts } from './hosts';

export { METRICS_KEPT_MS, METRICS_SPACING_MS } from './host-agent-exchange';

export const HOST_COMMAND_VALIDITY_S = 15 * 60;
/** A host command signed and not yet queued (stored as such with the operation that may need it). */
export type SealedCommand = SealedPlan;

/** A journal to read: a managed unit on a host. */
export interface JournalAsk {
  hostId: string;
  unit: string;
}

/** What a host's agent answered to a journal read. */
export interface JournalRead extends JournalAsk {
  state: 'succeeded' | 'failed' | 'unanswered';
  code: string | null;
  /** The lines read; empty unless succeeded. */
  text: string;
}

export class HostCommands {
  private readonly queued = new QueuedListeners();
  private readonly exchange: HostAgentExchange;

  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'commands' | 'hostMetrics' | 'hosts'>,
    private readonly hosts: Hosts,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
    private readonly commands: Commands,
    private readonly events: CoreEvents,
    private readonly profiles: Pick<Profiles, 'blockedRefusal'>,
  ) {
    this.exchange = new HostAgentExchange(store, tables, clock);
  }

  /** Called when a host has something new to deliver (the gateway's long polls listen). */
  onQueued(listener: (hostId: string) => void): () => void {
    return this.queued.add(listener);
  }

  /**
   * Signs and queues a plan for one host, built by a service operation that passed the lifecycle gate
   * (`allowFourEyes`). A person's own plan goes through issueRawPlan, which also asks the profile.
   */
  issuePlan(hostId: string, args: unknown, actor: string, opts: { allowFourEyes?: boolean } = {}): CommandView {
    const plan = checkedPlan(args);
    return this.issue(hostId, OP_PLAN_EXECUTE, plan, actor, (cluster) => {
      if (!opts.allowFourEyes && requiresFourEyes(cluster.profile)) throw rawPlanRefused(cluster.profile);
    });
  }

  /**
   * An administrator's raw plan: refused under a profile that requires four eyes (service operations, with
   * their approvals, build plans there) and, being a command, while the cluster's profile is blocked (the
   * refusal audited). Checked in that order after the plan itself, so bad input is a 400 without a probe.
   */
  async issueRawPlan(hostId: string, args: unknown, actor: string): Promise<CommandView> {
    const plan = checkedPlan(args);
    const host = this.hosts.get(hostId);
    const cluster = this.hosts.hostsCluster(host.cluster_id);
    if (requiresFourEyes(cluster.profile)) throw rawPlanRefused(cluster.profile);
    const refusal = await this.profiles.blockedRefusal(cluster.id, 'command');
    if (refusal) {
      this.store.tx(() =>
        this.store.audit.append({
          actor,
          action: 'command.refused',
          cluster_id: cluster.id,
          target: host.name,
          details: {
            op: OP_PLAN_EXECUTE,
            host_id: hostId,
            code: refusal.code,
            failing: (refusal.details?.failing as { id: string }[]).map((r) => r.id),
          },
        }),
      );
      throw refusal;
    }
    // The profile read again as the plan is queued: one changed to four eyes during the evaluation refuses it.
    return this.issue(hostId, OP_PLAN_EXECUTE, plan, actor, (c) => {
      if (requiresFourEyes(c.profile)) throw rawPlanRefused(c.profile);
    });
  }

  /** Asks a host's agent for the last lines of a managed unit's journal (read-only, also served offline). */
  issueJournalTail(hostId: string, unit: string, lines: number, actor: string): CommandView {
    if (!isManagedUnit(unit)) throw new ValidationError('unit', `${unit} is not a navin-<name>.service unit`);
    return this.issue(hostId, OP_JOURNAL_TAIL, { unit, lines }, actor);
  }

  /**
   * Reads journals through the agents: one journal.tail per host and unit, all at once, waited for at most
   * `timeoutMs`; each read says what its agent answered (a failure or silence included, never thrown).
   */
  async readJournals(asks: readonly JournalAsk[], lines: number, actor: string, timeoutMs: number): Promise<JournalRead[]> {
    const asked = asks.map((a) => ({ ...a, command: this.issueJournalTail(a.hostId, a.unit, lines, actor).id }));
    await this.waitEnded(
      asked.map((a) => a.command),
      timeoutMs,
    );
    // Read and dropped in one transaction: the text is handed to this asker and leaves the store (journal-text.ts),
    // also for a read still unanswered, whose late receipt then stores no text.
    return this.store.tx(() =>
      asked.map(({ hostId, unit, command }) => {
        const c = this.tables.commands.get(command);
        const text = (c?.result as { text?: unknown } | null)?.text;
        const state: JournalRead['state'] =
          c?.state === 'succeeded' && typeof text === 'string' ? 'succeeded' : commandEnded(c?.state ?? 'queued') ? 'failed' : 'unanswered';
        this.tables.commands.setResult(command, TEXT_DROPPED);
        return { hostId, unit, state, code: c?.code ?? null, text: typeof text === 'string' ? text : '' };
      }),
    );
  }

  /** Asks a host's agent to hash every file and unit it manages again (read-only, also served offline). */
  issueDriftScan(hostId: string, actor: string): CommandView {
    return this.issue(hostId, OP_DRIFT_SCAN, {}, actor);
  }

  /** A manager CA rotation's trust update for a host's agent (keys/ca-rotation.ts), recorded by `beforeCommit`. */
  issueCaTrust(hostId: string, args: CaTrustArgs, actor: string, beforeCommit: (commandId: string) => void): CommandView {
    return this.queue(this.sign(hostId, OP_CA_TRUST, { ...args }, HOST_COMMAND_VALIDITY_S), actor, {}, beforeCommit);
  }

  /** Asks a host's agent to read and report its facts now (read-only, also served offline). */
  issueFactsReport(hostId: string, actor: string): CommandView {
    return this.issue(hostId, OP_FACTS_REPORT, {}, actor);
  }

  private sign(hostId: string, op: string, args: Record<string, unknown>, validitySeconds: number): SealedCommand {
    const host = this.hosts.get(hostId);
    const cluster = this.hosts.hostsCluster(host.cluster_id);
    const signed = signCommand(this.keyring.active(), {
      tenant: cluster.tenant,
      target: hostId,
      op,
      args,
      now: this.clock.now(),
      validitySeconds,
    });
    return { ...signed, host_id: hostId, op, args };
  }

  /**
   * Signs a plan now and keeps it out of the queue: an upgrade's rollback, signed with the upgrade before anything
   * runs (sealed), valid for `validitySeconds`, queued by issueSealed only if it is needed.
   */
  seal(hostId: string, args: PlanArgs, validitySeconds: number): SealedCommand {
    return this.sign(hostId, OP_PLAN_EXECUTE, checkedPlan(args), validitySeconds);
  }

  /** Queues a plan sealed earlier, its signature and nonce as they were made. */
  issueSealed(sealed: SealedCommand, actor: string): CommandView {
    return this.queue(sealed, actor, { sealed: true });
  }

  private issue(
    hostId: string,
    op: string,
    args: Record<string, unknown>,
    actor: string,
    gate?: (cluster: { profile: Parameters<typeof requiresFourEyes>[0] }) => void,
  ): CommandView {
    gate?.(this.hosts.hostsCluster(this.hosts.get(hostId).cluster_id));
    return this.queue(this.sign(hostId, op, args, HOST_COMMAND_VALIDITY_S), actor, {});
  }

  private queue(c: SealedCommand, actor: string, extra: Record<string, unknown>, beforeCommit?: (commandId: string) => void): CommandView {
    const record = this.store.tx(() => {
      const host = this.hosts.get(c.host_id);
      const cluster = this.hosts.hostsCluster(host.cluster_id);
      this.tables.hosts.insertCommand(
        {
          id: c.command_id,
          cluster_id: cluster.id,
          op: c.op,
          args: c.args,
          envelope: c.envelope,
          requested_by: actor,
          created_at: this.clock.now().toISOString(),
          not_after: c.not_after,
        },
        c.host_id,
      );
      beforeCommit?.(c.command_id);
      this.store.audit.append({
        actor,
        action: `command.${c.op}`,
        cluster_id: cluster.id,
        target: host.name,
        details: {
          command_id: c.command_id,
          host_id: c.host_id,
          ...(c.op === OP_PLAN_EXECUTE ? { tasks: (c.args.tasks as unknown[]).length } : {}),
          ...extra,
        },
      });
      return this.tables.commands.get(c.command_id)!;
    });
    this.queued.wake(c.host_id);
    this.events.emit('command.changed', { id: record.id, cluster_id: record.cluster_id, host_id: c.host_id });
    return this.commands.get(record.id);
  }

  /** Waits until each command has ended, at most `timeoutMs` (then the caller reads what did and did not). */
  async waitEnded(commandIds: string[], timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    const ended = (id: string): boolean => commandEnded(this.tables.commands.get(id)?.state ?? 'queued');
    while (!commandIds.every(ended) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /** The newest `limit` commands addressed to one host (the route refuses a limit out of its range). */
  list(hostId: string, reader: Role, limit = 50): CommandView[] {
    this.hosts.get(hostId);
    return this.tables.hosts.listCommands(hostId, limit).map((c) => this.commands.read(c.id, reader));
  }

  /**
   * Hands the due commands to the host's agent and marks them delivered (redelivered if not acknowledged in time);

  /**
   * Hands the due commands to the host's agent and marks them delivered (redelivered if not acknowledged in time);
   * `live` judges the asking certificate in the same transaction (Commands.deliver says why).
   */
  deliver(hostId: string, redeliverAfterS: number, live?: () => boolean): unknown[] {
    const delivered = this.exchange.deliver(hostId, redeliverAfterS, live);
    if (delivered.length > 0) this.changed(hostId);
    return delivered;
  }

  nextWakeup(hostId: string): string | undefined {
    return this.exchange.nextWakeup(hostId);
  }

  /** Records a receipt. The first final receipt sets the status; later ones are kept but change nothing. */
  recordReceipt(hostId: string, receipt: ReceivedReceipt, actor: string): { changed: boolean } {
    const recorded = this.exchange.recordReceipt(hostId, receipt, actor);
    this.changed(hostId, receipt.command_id);
    return recorded;
  }

  /** Records one task's progress of a running plan. */
  recordProgress(hostId: string, body: PlanProgress, actor: string): void {
    this.exchange.recordProgress(hostId, body, actor);
    this.changed(hostId, body.command_id);
  }

  /**
   * Announced by the domain that records a host's command, whoever hands it in: a service operation advances on
   * its plans' receipts, which the gateway (a transport) only carries. No id: a poll's batch was delivered.
   */
  private changed(hostId: string, commandId?: string): void {
    const host = this.tables.hosts.get(hostId);
    if (host) this.events.emit('command.changed', { id: commandId, cluster_id: host.cluster_id, host_id: hostId });
  }

  /**
   * Stores a report of the host's facts, managed files and units, and a sample of its figures, and announces it
   * with the `liveness` of its watched units (the report's own unless given), whoever hands it in.
   */
  recordReport(hostId: string, body: HostReport, liveness: Record<string, CheckOutcome> | undefined = body.liveness): void {
    this.exchange.recordReport(hostId, body);
    const host = this.tables.hosts.get(hostId);
    if (!host) return;
    this.events.emit('host.changed', { id: hostId, cluster_id: host.cluster_id });
    // The services of the host take their instances' liveness from it (services/ listens).
    if (liveness) this.events.emit('host.liveness', { host_id: hostId, cluster_id: host.cluster_id, liveness });
  }

  /** A plan with each task's state: planned ones pending, those never run after a failure skipped. */
  plan(commandId: string): PlanView {
    return planView(this.tables, commandId);
  }
}
