// One host's plan in a phase of a service operation: its state, then each task with its status, duration, code
// and message, and its output folded (open when the task failed); a check task's output is its outcome: status,
// error code, steps and evidence.
import type { ReactElement } from 'react';
import type { CheckOutcome, PlanTaskView, PlanView, TaskStatus } from '../../../../preload/api';
import { useT } from '../../app/stores';
import { CommandStateBadge, Tone } from '../../components/Badges';
import { CodeBlock } from '../../components/CodeBlock';
import { DataTable } from '../../components/DataTable';
import { CodeText } from '../commands/CommandParts';

const TASK_TONE: Record<TaskStatus, 'ok' | 'bad' | 'info' | 'neutral'> = {
  pending: 'neutral',
  running: 'info',
  succeeded: 'ok',
  failed: 'bad',
  skipped: 'neutral',
};

export function PlanTasks({ plan }: { plan: PlanView & { host_name: string } }): ReactElement {
  const t = useT();
  return (
    <section className="operation-plan" aria-labelledby={`plan-${plan.command_id}`} data-testid="operation-plan" data-host={plan.host_name}>
      <h4 id={`plan-${plan.command_id}`} className="plan-title">
        {t('services.operation.plan', { host: plan.host_name })}
        <CommandStateBadge state={plan.state} />
        <span className="muted">{t('services.operation.planCount', { done: plan.succeeded, total: plan.total })}</span>
      </h4>
      {plan.withheld?.includes('output') ? (
        <p className="help" data-testid="plan-withheld">
          {t('command.withheld.output')}
        </p>
      ) : null}
      <DataTable
        caption={t('services.operation.tasksOf', { host: plan.host_name })}
        columns={(['task', 'status', 'duration', 'result'] as const).map((c) => t(`services.task.col.${c}`))}
        className="task-table"
      >
        {plan.tasks.map((task) => (
          <TaskRow key={task.index} task={task} />
        ))}
      </DataTable>
    </section>
  );
}

function TaskRow({ task }: { task: PlanTaskView }): ReactElement {
  const t = useT();
  const check = checkOutcome(task);
  return (
    <tr data-testid="operation-task" data-task-id={task.id} data-status={task.status}>
      <th scope="row">
        {task.title ?? task.id}
        <br />
        <code className="muted">{task.kind}</code>
        {task.resumed ? <span className="muted"> {t('services.task.resumed')}</span> : null}
      </th>
      <td>
        <Tone tone={TASK_TONE[task.status] ?? 'neutral'} testId="task-status">
          {t(`services.task.status.${task.status}`)}
        </Tone>
      </td>
      <td>{task.duration_ms === null ? '—' : <Duration ms={task.duration_ms} />}</td>
      <td>
        {task.code ? <CodeText code={task.code} withHint={false} /> : null}
        {task.message ? <p className="task-message">{task.message}</p> : null}
        {task.output ? (
          <details className="advanced task-output" open={task.status === 'failed'}>
            <summary>{t('services.task.output')}</summary>
            {check ? (
              <CheckOutcomeView outcome={check} id={task.id} />
            ) : (
              <CodeBlock text={JSON.stringify(task.output, null, 2)} label={t('services.task.outputOf', { id: task.id })} />
            )}
          </details>
        ) : null}
      </td>
    </tr>
  );
}

function Duration({ ms }: { ms: number }): ReactElement {
  const t = useT();
  return (
    <span className="mono">
      {ms < 1000 ? t('services.task.ms', { ms }) : t('services.task.seconds', { seconds: Math.round(ms / 100) / 10 })}
    </span>
  );
}

/** The outcome a check task reported (its output's `check`), or null for other tasks. */
export function checkOutcome(task: Pick<PlanTaskView, 'kind' | 'output'>): CheckOutcome | null {
  const c = (task.output as { check?: CheckOutcome } | null)?.check;
  return task.kind === 'check' && c && typeof c === 'object' && (c.status === 'pass' || c.status === 'fail') ? c : null;
}

function CheckOutcomeView({ outcome, id }: { outcome: CheckOutcome; id: string }): ReactElement {
  const t = useT();
  return (
    <div className="check-outcome" data-testid="task-check" data-status={outcome.status}>
      <p className="check-head">
        <Tone tone={outcome.status === 'pass' ? 'ok' : 'bad'}>{t(`check.status.${outcome.status}`)}</Tone>
        <code>{outcome.kind}</code>
        {outcome.error ? (
          <>
            <code data-testid="check-error-code">{outcome.error.code}</code>
            <span>{outcome.error.message}</span>
          </>
        ) : null}
      </p>
      <p className="muted">{outcome.method}</p>
      {outcome.steps?.length ? (
        <ol className="check-steps" aria-label={t('services.check.steps')}>
          {outcome.steps.map((s, i) => (
            <li key={i} data-status={s.status}>
              <code>{s.name}</code> {t(`services.check.step.${s.status}`)}
              {s.detail ? <span className="muted"> {s.detail}</span> : null}
            </li>
          ))}
        </ol>
      ) : null}
      <CodeBlock text={JSON.stringify(outcome.evidence ?? {}, null, 2)} label={t('check.evidenceOf', { id })} testId="check-evidence" />
    </div>
  );
}
