// Signed commands for one host's node agent (target = the host id): plans of tasks and facts reports. The
// gateway hands a host only its own commands; receipts and progress for another host's command are refused and
// audited. A plan's progress is recorded task by task, and the final receipt's outcomes complete it.
import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { ConflictError, CoreError, NotFoundError, ValidationError } from '../errors';
import type { Keyring } from '../keys/keyring';
import { ForbiddenReceiptError, type Commands, type CommandView } from '../commands/commands';
import type { CoreEvents } from '../events';
import { requiresFourEyes } from '../profiles/profile-rules';
import type { Profiles } from '../profiles/profiles';
import type { CommandRecord } from '../store/commands-tables';
import type { Role } from '../store/accounts-tables';
import { isTextDropped, receiptWithoutText, TEXT_DROPPED } from '../commands/journal-text';
import type { SealedPlan } from '../store/services-tables';
import type { Store } from '../store/store';
import { buildCommand, signDocument } from '../../wire/envelope';
import {
  DEFAULT_MANAGED_ROOTS,
  isManagedUnit,
  OP_DRIFT_SCAN,
  OP_FACTS_REPORT,
  OP_JOURNAL_TAIL,
  OP_PLAN_EXECUTE,
  type HostReportRequest,
} from '../../wire/node-agent';
import {
  planProblem,
  taskOutcomeProblem,
  type PlanArgs,
  type PlanProgressRequest,
  type PlanResult,
  type TaskOutcome,
  type TaskStatus,
} from '../../wire/plan';
import type { Receipt } from '../../wire/protocol';
import type { Hosts } from './hosts';

export const HOST_COMMAND_VALIDITY_S = 15 * 60;

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
  resumed: boolean;
}

export interface PlanView {
  command_id: string;
  host_id: string;
  state: CommandRecord['state'];
  code: string | null;
  title: string | null;
  total: number;
  succeeded: number;
  failed_task: string | null;
  tasks: PlanTaskView[];
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Fills in the sha256 of inline contents (refusing one given that does not match), so callers need not. */
function withDigests(args: Record<string, unknown>): PlanArgs {
  if (!Array.isArray(args.tasks)) throw new ValidationError('tasks', 'a plan is {"tasks": [...]}');
  const tasks = args.tasks.map((t: unknown, i) => {
    if (typeof t !== 'object' || t === null) return t;
    const task = { ...(t as Record<string, unknown>) };
    let bytes: Buffer | undefined;
    if ((task.kind === 'file.write' || task.kind === 'unit.write') && typeof task.content === 'string')
      bytes = Buffer.from(task.content, 'utf8');
    if (task.kind === 'file.write' && typeof task.content_base64 === 'string' && task.content === undefined)
      bytes = Buffer.from(task.content_base64, 'base64');
    if (bytes) {
      const digest = sha256(bytes);
      if (task.sha256 !== undefined && task.sha256 !== digest)
        throw new ValidationError('tasks', `task ${i}: sha256 ${JSON.stringify(task.sha256)} is not the digest of its content (${digest})`);
      task.sha256 = digest;
    }
    return task;
  });
  return { ...args, tasks } as unknown as PlanArgs;
}

/** A plan as given, checked against the managed roots and units, its inline contents' digests filled in. */
function checkedPlan(args: unknown): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new ValidationError('tasks', 'a plan is {"tasks": [...]}');
  const plan = withDigests(args as Record<string, unknown>);
  const problem = planProblem(plan, DEFAULT_MANAGED_ROOTS, isManagedUnit);
  if (problem) throw new ValidationError('tasks', problem);
  return plan as unknown as Record<string, unknown>;
}

const rawPlanRefused = (profile: string): CoreError =>
  new ConflictError(
    'raw_plan_refused',
    `the ${profile} profile requires four eyes: a raw plan cannot be sent to its hosts, only service operations with their approvals`,
  );

/** A host command signed and not yet queued (stored as such with the operation that may need it). */
export type SealedCommand = SealedPlan;

/** A command has ended (succeeded, failed or rejected): nothing more will come of it. */
export const commandEnded = (state: CommandRecord['state']): boolean => state !== 'queued' && state !== 'delivered';

/** How long the samples of host figures are kept: the Metrics tab shows a day at most. */
export const METRICS_KEPT_MS = 24 * 3600_000;
/** The least time between two kept samples of a host: an agent reporting in a loop adds no more (agents report each minute). */
export const METRICS_SPACING_MS = 5_000;

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
  private readonly listeners = new Set<(hostId: string) => void>();

  constructor(
    private readonly store: Store,
    private readonly hosts: Hosts,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
    private readonly commands: Commands,
    private readonly events: CoreEvents,
    private readonly profiles: Pick<Profiles, 'blockedRefusal'>,
  ) {}

  /** Called when a host has something new to deliver (the gateway's long polls listen). */
  onQueued(listener: (hostId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
        const c = this.store.commands.get(command);
        const text = (c?.result as { text?: unknown } | null)?.text;
        const state: JournalRead['state'] =
          c?.state === 'succeeded' && typeof text === 'string' ? 'succeeded' : commandEnded(c?.state ?? 'queued') ? 'failed' : 'unanswered';
        this.store.commands.setResult(command, TEXT_DROPPED);
        return { hostId, unit, state, code: c?.code ?? null, text: typeof text === 'string' ? text : '' };
      }),
    );
  }

  /** Asks a host's agent to hash every file and unit it manages again (read-only, also served offline). */
  issueDriftScan(hostId: string, actor: string): CommandView {
    return this.issue(hostId, OP_DRIFT_SCAN, {}, actor);
  }

  /** Asks a host's agent to read and report its facts now (read-only, also served offline). */
  issueFactsReport(hostId: string, actor: string): CommandView {
    return this.issue(hostId, OP_FACTS_REPORT, {}, actor);
  }

  private sign(hostId: string, op: string, args: Record<string, unknown>, validitySeconds: number): SealedCommand {
    const host = this.hosts.get(hostId);
    const cluster = this.hosts.hostsCluster(host.cluster_id);
    const envelope = signDocument(
      buildCommand({ command_id: randomUUID(), tenant: cluster.tenant, target: hostId, op, args, now: this.clock.now(), validitySeconds }),
      this.keyring.active(),
    );
    const payload = envelope.payload as { command_id: string; not_after: string };
    return { command_id: payload.command_id, host_id: hostId, op, args, envelope, not_after: payload.not_after };
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

  private queue(c: SealedCommand, actor: string, extra: Record<string, unknown>): CommandView {
    const record = this.store.tx(() => {
      const host = this.hosts.get(c.host_id);
      const cluster = this.hosts.hostsCluster(host.cluster_id);
      this.store.hosts.insertCommand(
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
      return this.store.commands.get(c.command_id)!;
    });
    for (const l of this.listeners) l(c.host_id);
    this.events.emit('command.changed', { id: record.id, cluster_id: record.cluster_id, host_id: c.host_id });
    return this.commands.get(record.id);
  }

  /** Waits until each command has ended, at most `timeoutMs` (then the caller reads what did and did not). */
  async waitEnded(commandIds: string[], timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    const ended = (id: string): boolean => commandEnded(this.store.commands.get(id)?.state ?? 'queued');
    while (!commandIds.every(ended) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /** The newest `limit` commands addressed to one host (the route refuses a limit out of its range). */
  list(hostId: string, reader: Role, limit = 50): CommandView[] {
    this.hosts.get(hostId);
    return this.store.hosts.listCommands(hostId, limit).map((c) => this.commands.read(c.id, reader));
  }

  /**
   * Hands the due commands to the host's agent and marks them delivered (redelivered if not acknowledged in time);
   * `live` judges the asking certificate in the same transaction (Commands.deliver says why).
   */
  deliver(hostId: string, redeliverAfterS: number, live?: () => boolean): unknown[] {
    return this.store.tx(() => {
      if (live && !live()) throw new CoreError('certificate_refused', 'this client certificate was revoked');
      const now = this.clock.now();
      const due = this.store.hosts.due(hostId, new Date(now.getTime() - redeliverAfterS * 1000).toISOString(), now.toISOString());
      for (const c of due) this.store.commands.markDelivered(c.id, now.toISOString());
      return due.map((c) => c.envelope);
    });
  }

  nextWakeup(hostId: string): string | undefined {
    return this.store.hosts.nextWakeup(hostId);
  }

  /** The command, which must be addressed to this host; otherwise refused, and the refusal audited. */
  private ownCommand(hostId: string, commandId: string, actor: string, what: 'receipt' | 'progress'): CommandRecord {
    const command = this.store.commands.get(commandId);
    const owner = command ? this.store.hosts.commandHost(commandId)?.host_id : undefined;
    if (command && owner === hostId) return command;
    const host = this.store.hosts.get(hostId);
    this.store.tx(() =>
      this.store.audit.append({
        actor,
        action: `gateway.${what}_refused`,
        cluster_id: host?.cluster_id ?? null,
        target: commandId,
        details: { host_id: hostId, reason: command ? 'other_host' : 'unknown_command', command_host: owner ?? null },
      }),
    );
    throw new ForbiddenReceiptError(commandId);
  }

  /** Records a receipt. The first final receipt sets the status; later ones are kept but change nothing. */
  recordReceipt(hostId: string, receipt: Receipt, actor: string): { changed: boolean } {
    const command = this.ownCommand(hostId, receipt.command_id, actor, 'receipt');
    const journal = command.op === OP_JOURNAL_TAIL;
    return this.store.tx(() => {
      const now = this.clock.now().toISOString();
      this.store.commands.insertReceipt({
        command_id: command.id,
        cluster_id: command.cluster_id,
        received_at: now,
        status: receipt.status,
        code: receipt.code ?? null,
        replica: receipt.replica ?? null,
        body: journal ? receiptWithoutText(receipt) : receipt,
      });
      const outcome = receipt.code === 'nonce_replayed' && receipt.original ? receipt.original : receipt;
      // A journal read its asker no longer waits for keeps its marker: the late text is not stored.
      const stored = journal ? this.store.commands.get(command.id)?.result : undefined;
      const result = journal && isTextDropped(stored) ? stored : (outcome.result ?? null);
      const changed = this.store.commands.complete(command.id, outcome.status, outcome.code ?? null, result, now);
      if (changed) {
        // The final outcomes complete the progress, even when progress reports were lost while offline.
        const tasks = (outcome.result as Partial<PlanResult> | undefined)?.tasks;
        if (command.op === OP_PLAN_EXECUTE && Array.isArray(tasks)) for (const t of tasks) this.upsertTask(command.id, t);
        this.store.audit.append({
          actor,
          action: 'command.completed',
          cluster_id: command.cluster_id,
          target: command.id,
          details: { status: outcome.status, code: outcome.code ?? null, host_id: hostId },
        });
      }
      return { changed };
    });
  }

  /** Records one task's progress of a running plan. */
  recordProgress(hostId: string, body: PlanProgressRequest, actor: string): void {
    const problem = taskOutcomeProblem(body.task);
    if (problem) throw new CoreError('bad_request', problem);
    const command = this.ownCommand(hostId, body.command_id, actor, 'progress');
    if (command.op !== OP_PLAN_EXECUTE) throw new CoreError('bad_request', 'progress is reported for plans only');
    this.store.tx(() => this.upsertTask(command.id, body.task));
  }

  /** A final receipt's task list is the agent's: a malformed entry is left out of the table, the receipt kept. */
  private upsertTask(commandId: string, t: TaskOutcome): void {
    if (taskOutcomeProblem(t)) return;
    this.store.hosts.upsertTask({
      command_id: commandId,
      idx: t.index,
      task_id: t.id,
      kind: t.kind,
      status: t.status as 'running',
      started_at: t.started_at ?? null,
      finished_at: t.finished_at ?? null,
      code: t.code ?? null,
      message: t.message ?? null,
      body: t,
    });
  }

  /**
   * Stores a report: facts, managed files and units, each unit as systemd has it, and a sample of the host's
   * figures timed by the manager's clock (hosts' clocks may drift; the charts put every host on one axis).
   */
  recordReport(hostId: string, body: HostReportRequest): void {
    const now = this.clock.now();
    const at = now.toISOString();
    this.store.tx(() => {
      this.store.hosts.setReport(hostId, at, body.facts, body.managed ?? null, body.units);
      if (!body.metrics) return;
      const units = Object.fromEntries(
        Object.entries(body.units ?? {}).map(([u, o]) => [
          u,
          { cpu_ns: o.cpu_ns, memory_bytes: o.memory_bytes, active_state: o.active_state },
        ]),
      );
      const keepFrom = new Date(now.getTime() - METRICS_KEPT_MS).toISOString();
      const notAfter = new Date(now.getTime() - METRICS_SPACING_MS).toISOString();
      this.store.hostMetrics.add(hostId, { ...body.metrics, at, units }, keepFrom, notAfter);
    });
  }

  /** A plan with each task's state: planned ones pending, those never run after a failure skipped. */
  plan(commandId: string): PlanView {
    const command = this.store.commands.get(commandId);
    const hostId = command ? this.store.hosts.commandHost(commandId)?.host_id : null;
    if (!command || !hostId || command.op !== OP_PLAN_EXECUTE) throw new NotFoundError('plan', commandId);
    const args = command.args as PlanArgs;
    const rows = new Map(this.store.hosts.tasks(commandId).map((r) => [r.idx, r]));
    const final = commandEnded(command.state);
    const tasks = args.tasks.map((t, index): PlanTaskView => {
      const r = rows.get(index);
      const body = (r?.body ?? {}) as TaskOutcome;
      return {
        index,
        id: t.id,
        kind: t.kind,
        title: t.title ?? null,
        status: r?.status ?? (final ? 'skipped' : 'pending'),
        started_at: r?.started_at ?? null,
        finished_at: r?.finished_at ?? null,
        duration_ms: body.duration_ms ?? null,
        code: r?.code ?? null,
        message: r?.message ?? null,
        output: body.output ?? null,
        resumed: body.resumed === true,
      };
    });
    return {
      command_id: commandId,
      host_id: hostId,
      state: command.state,
      code: command.code,
      title: args.title ?? null,
      total: tasks.length,
      succeeded: tasks.filter((t) => t.status === 'succeeded').length,
      failed_task: tasks.find((t) => t.status === 'failed')?.id ?? null,
      tasks,
    };
  }
}
