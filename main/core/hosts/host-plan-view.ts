// A plan as people follow it: each task of the signed plan with the state its agent reported, planned ones
// pending, those never run after a failure skipped.
import type { Tables } from '../domain-tables';
import { NotFoundError } from '../errors';
import type { CommandRecord } from '../commands/commands-tables';
import { OP_PLAN_EXECUTE } from '../../wire/node-agent';
import type { PlanArgs, TaskOutcome } from '../../wire/plan';
import type { PlanTaskView, PlanView } from '../../contract/hosts';

export type { PlanTaskView, PlanView };

/** A command has ended (succeeded, failed or rejected): nothing more will come of it. */
export const commandEnded = (state: CommandRecord['state']): boolean => state !== 'queued' && state !== 'delivered';

export function planView(tables: Tables<'commands' | 'hosts'>, commandId: string): PlanView {
  const command = tables.commands.get(commandId);
  const hostId = command ? tables.hosts.commandHost(commandId)?.host_id : null;
  if (!command || !hostId || command.op !== OP_PLAN_EXECUTE) throw new NotFoundError('plan', commandId);
  const args = command.args as PlanArgs;
  const rows = new Map(tables.hosts.tasks(commandId).map((r) => [r.idx, r]));
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
