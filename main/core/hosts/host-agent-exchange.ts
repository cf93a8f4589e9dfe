// What a host's node agent exchanges with the manager through the gateway: the due commands it is handed, and
// what it sends back — receipts (the first final one sets a command's status), a plan's progress task by task,
// and reports of its facts, managed files, units and figures. A receipt or progress for another host's command is
// refused and audited.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import { CoreError } from '../errors';
import { ForbiddenReceiptError } from '../commands/commands';
import { isTextDropped, receiptWithoutText } from '../commands/journal-text';
import { closeWithReceipt, deliverDue, outcomeOf } from '../commands/command-pipeline';
import type { CommandRecord } from '../commands/commands-tables';
import type { Store } from '../store/store';
import { OP_JOURNAL_TAIL, OP_PLAN_EXECUTE } from '../../wire/node-agent';
import {
  PLAN_RESULT_TASKS,
  TASK_OUTCOME,
  type HostReport,
  type PlanProgress,
  type ReceivedReceipt,
  type ReportedTask,
} from '../../wire/agent-requests';

/** How long the samples of host figures are kept: the Metrics tab shows a day at most. */
export const METRICS_KEPT_MS = 24 * 3600_000;
/** The least time between two kept samples of a host: an agent reporting in a loop adds no more (agents report each minute). */
export const METRICS_SPACING_MS = 5_000;

export class HostAgentExchange {
  constructor(
    private readonly store: Store,
    private readonly tables: Tables<'commands' | 'hostMetrics' | 'hosts'>,
    private readonly clock: Clock,
  ) {}

  /**
   * Hands the due commands to the host's agent and marks them delivered (redelivered if not acknowledged in time);
   * `live` judges the asking certificate in the same transaction (deliverDue says why).
   */
  deliver(hostId: string, redeliverAfterS: number, live?: () => boolean): unknown[] {
    return deliverDue(
      this.store,
      this.tables,
      this.clock,
      redeliverAfterS,
      (before, now) => this.tables.hosts.due(hostId, before, now),
      live,
    );
  }

  nextWakeup(hostId: string): string | undefined {
    return this.tables.hosts.nextWakeup(hostId);
  }

  /** The command, which must be addressed to this host; otherwise refused, and the refusal audited. */
  private ownCommand(hostId: string, commandId: string, actor: string, what: 'receipt' | 'progress'): CommandRecord {
    const command = this.tables.commands.get(commandId);
    const owner = command ? this.tables.hosts.commandHost(commandId)?.host_id : undefined;
    if (command && owner === hostId) return command;
    const host = this.tables.hosts.get(hostId);
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
  recordReceipt(hostId: string, receipt: ReceivedReceipt, actor: string): { changed: boolean } {
    const command = this.ownCommand(hostId, receipt.command_id, actor, 'receipt');
    const journal = command.op === OP_JOURNAL_TAIL;
    return this.store.tx(() => {
      const outcome = outcomeOf(receipt);
      // A journal read its asker no longer waits for keeps its marker: the late text is not stored.
      const stored = journal ? this.tables.commands.get(command.id)?.result : undefined;
      const changed = closeWithReceipt(this.tables, this.clock.now().toISOString(), command, receipt, {
        body: journal ? receiptWithoutText(receipt) : receipt,
        result: journal && isTextDropped(stored) ? stored : (outcome.result ?? null),
      });
      if (changed) {
        // The final outcomes complete the progress, even when progress reports were lost while offline.
        const plan = PLAN_RESULT_TASKS.safeParse(outcome.result);
        if (command.op === OP_PLAN_EXECUTE && plan.success) for (const t of plan.data.tasks) this.upsertReported(command.id, t);
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

  /** Records one task's progress of a running plan (its task parsed by TASK_OUTCOME). */
  recordProgress(hostId: string, body: PlanProgress, actor: string): void {
    const command = this.ownCommand(hostId, body.command_id, actor, 'progress');
    if (command.op !== OP_PLAN_EXECUTE) throw new CoreError('bad_request', 'progress is reported for plans only');
    this.store.tx(() => this.upsertTask(command.id, body.task));
  }

  /** A final receipt's task list is the agent's: a malformed entry is left out of the table, the receipt kept. */
  private upsertReported(commandId: string, t: unknown): void {
    const task = TASK_OUTCOME.safeParse(t);
    if (task.success) this.upsertTask(commandId, task.data);
  }

  private upsertTask(commandId: string, t: ReportedTask): void {
    this.tables.hosts.upsertTask({
      command_id: commandId,
      idx: t.index,
      task_id: t.id,
      kind: t.kind,
      status: t.status,
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
  recordReport(hostId: string, body: HostReport): void {
    const now = this.clock.now();
    const at = now.toISOString();
    this.store.tx(() => {
      this.tables.hosts.setReport(hostId, at, body.facts, body.managed ?? null, body.units);
      if (!body.metrics) return;
      const units = Object.fromEntries(
        Object.entries(body.units ?? {}).map(([u, o]) => [
          u,
          { cpu_ns: o.cpu_ns, memory_bytes: o.memory_bytes, active_state: o.active_state },
        ]),
      );
      const keepFrom = new Date(now.getTime() - METRICS_KEPT_MS).toISOString();
      const notAfter = new Date(now.getTime() - METRICS_SPACING_MS).toISOString();
      this.tables.hostMetrics.add(hostId, { ...body.metrics, at, units }, keepFrom, notAfter);
    });
  }
}
