// What the node agent's commands do: plan.execute runs a signed plan's tasks in order, writing each task's
// outcome to the state file before reporting it, so a restarted agent resumes after the last completed task and
// never runs one twice; a failed task stops the plan with its code. facts.report (read-only) reports the facts;
// drift.scan (read-only) hashes every managed file and unit again.
import {
  isManagedUnit,
  NODE_OPERATIONS,
  NODE_SENSITIVE_OPERATIONS,
  OP_DRIFT_SCAN,
  OP_FACTS_REPORT,
  OP_JOURNAL_TAIL,
  OP_PLAN_EXECUTE,
} from '../../main/wire/node-agent';
import { journalTail, journalTailProblem } from './journal-tail';
import { driftScan } from './drift-scan';
import { planProblem, type PlanArgs, type PlanResult, type TaskOutcome } from '../../main/wire/plan';
import { ExecutionError, type Executor, type Prepared } from '../commands';
import { log } from '../log';
import type { FileStateStore, NodeState } from './file-state';
import type { ManagedFs } from './managed-fs';
import { runTask, type CheckHook } from './tasks';

export interface NodeExecutorOptions {
  state: FileStateStore;
  fs: ManagedFs;
  /** Where the host's "/" is (a folder in tests): drift scans read the managed paths there. */
  prefix: string;
  systemctl: string;
  runCheck: CheckHook;
  /** Best effort, after each state write: the final receipt carries every outcome anyway. */
  onProgress: (commandId: string, total: number, task: TaskOutcome) => Promise<void>;
  onFacts: () => Promise<Record<string, unknown>>;
  onManagedChanged: () => void;
}

/** NAVIN_AGENT_FAILPOINT=after-task:<id> or during-task:<id>: die there (for the crash tests). */
function failpoint(where: 'after-task' | 'during-task', taskId: string): void {
  if (process.env.NAVIN_AGENT_FAILPOINT === `${where}:${taskId}`) {
    log('failpoint.exit', { where, task: taskId }, 'warn');
    process.exit(137);
  }
}

export class NodeExecutor implements Executor<NodeState> {
  readonly operations = NODE_OPERATIONS;
  readonly sensitive = NODE_SENSITIVE_OPERATIONS;

  constructor(private readonly o: NodeExecutorOptions) {}

  prepare(_commandId: string, op: string, args: unknown): Prepared<NodeState> {
    if (op === OP_FACTS_REPORT || op === OP_DRIFT_SCAN) return { ok: true };
    if (op === OP_JOURNAL_TAIL) {
      const problem = journalTailProblem(args);
      return problem ? { ok: false, code: 'args_invalid', message: problem } : { ok: true };
    }
    const problem = planProblem(args, this.o.fs.roots, isManagedUnit);
    if (problem) {
      const code = /not a unit the agent manages/.test(problem)
        ? 'unit_not_managed'
        : /not under a managed root/.test(problem)
          ? 'path_not_managed'
          : 'args_invalid';
      return { ok: false, code, message: `the plan is refused before any task ran: ${problem}` };
    }
    return {
      ok: true,
      claim: (s) => void (s.plans[_commandId] = { args: args as PlanArgs, accepted_at: new Date().toISOString(), tasks: [] }),
    };
  }

  inProgress(commandId: string): boolean {
    return commandId in this.o.state.state.plans;
  }

  /** Plans accepted before a restart and not finished: resumed at start. */
  unfinished(): string[] {
    return Object.keys(this.o.state.state.plans);
  }

  settle(s: NodeState, commandId: string): void {
    delete s.plans[commandId];
  }

  async execute(commandId: string, op: string, args?: unknown): Promise<unknown> {
    if (op === OP_FACTS_REPORT) return this.o.onFacts();
    if (op === OP_DRIFT_SCAN) return driftScan(this.o.prefix, this.o.state.state.managed);
    if (op === OP_JOURNAL_TAIL) return journalTail(args as { unit: string; lines: number });
    if (op !== OP_PLAN_EXECUTE) throw new ExecutionError('op_unknown', `unknown operation ${op}`);
    return this.runPlan(commandId);
  }

  private async runPlan(commandId: string): Promise<PlanResult> {
    const { state } = this.o;
    const plan = state.state.plans[commandId];
    if (!plan) throw new ExecutionError('execution_failed', `no accepted plan ${commandId} in the state`);
    const { tasks } = plan.args;
    const total = tasks.length;
    let failed: TaskOutcome | undefined;
    try {
      for (const [index, task] of tasks.entries()) {
        const before = state.state.plans[commandId]!.tasks[index];
        if (before?.status === 'succeeded') continue; // completed before a restart: never again
        const started: TaskOutcome = {
          index,
          id: task.id,
          kind: task.kind,
          status: 'running',
          started_at: new Date().toISOString(),
          ...(before?.status === 'running' ? { resumed: true } : {}),
        };
        await state.update((s) => void (s.plans[commandId]!.tasks[index] = started));
        log('task.started', { command_id: commandId, task: task.id, kind: task.kind, index, resumed: started.resumed ?? false });
        await this.o.onProgress(commandId, total, started);
        failpoint('during-task', task.id);
        let outcome: TaskOutcome;
        let record: ((s: NodeState) => void) | undefined;
        const t0 = performance.now();
        try {
          const done = await runTask(task, { fs: this.o.fs, commandId, systemctl: this.o.systemctl, runCheck: this.o.runCheck });
          record = done.record;
          outcome = {
            ...started,
            status: 'succeeded',
            finished_at: new Date().toISOString(),
            duration_ms: Math.round(performance.now() - t0),
            output: done.output,
          };
        } catch (error) {
          const e = error as ExecutionError;
          outcome = {
            ...started,
            status: 'failed',
            finished_at: new Date().toISOString(),
            duration_ms: Math.round(performance.now() - t0),
            code: e instanceof ExecutionError ? e.code : 'execution_failed',
            message: e.message,
            ...(e instanceof ExecutionError && e.result ? { output: e.result as Record<string, unknown> } : {}),
          };
        }
        // The outcome (and the file or unit recorded) is durable before anyone hears of it.
        await state.update((s) => {
          s.plans[commandId]!.tasks[index] = outcome;
          record?.(s);
        });
        log('task.finished', { command_id: commandId, task: task.id, index, status: outcome.status, code: outcome.code ?? null });
        await this.o.onProgress(commandId, total, outcome);
        failpoint('after-task', task.id);
        if (outcome.status === 'failed') {
          failed = outcome;
          break;
        }
      }
    } finally {
      if (
        tasks.some((t) => t.kind.startsWith('file.') || t.kind.startsWith('unit.') || t.kind === 'artifact.fetch' || t.kind === 'tls.csr')
      )
        this.o.onManagedChanged();
    }
    const outcomes = tasks.map(
      (t, index): TaskOutcome => state.state.plans[commandId]!.tasks[index] ?? { index, id: t.id, kind: t.kind, status: 'skipped' },
    );
    const result: PlanResult = {
      tasks: outcomes,
      total,
      succeeded: outcomes.filter((t) => t.status === 'succeeded').length,
      failed_task: failed?.id ?? null,
    };
    if (failed) throw new ExecutionError(failed.code!, `task ${failed.id} (${failed.kind}) failed: ${failed.message}`, result);
    return result;
  }
}
