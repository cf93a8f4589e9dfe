// The newest operation of a service, followed live: its progress bar (tasks done of all its tasks), and each
// phase with each host's plan in it, task by task (PlanTasks.tsx); a phase not issued yet names its hosts.
import type { ReactElement } from 'react';
import type { OperationView } from '../../../../preload/api';
import { useFormat, useLocale, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { isMessageKey, translateLoose } from '../../i18n';
import { CodeText } from '../commands/CommandParts';
import { PlanTasks } from './PlanTasks';

const OPERATION_TONE: Record<OperationView['state'], 'ok' | 'bad' | 'info'> = { running: 'info', succeeded: 'ok', failed: 'bad' };

export function OperationStateBadge({ state }: { state: OperationView['state'] }): ReactElement {
  const t = useT();
  return (
    <span data-testid="operation-state" data-state={state}>
      <Tone tone={OPERATION_TONE[state] ?? 'neutral'}>{t(`services.operation.state.${state}`)}</Tone>
    </span>
  );
}

/** Words of a name the manager sends (an action, a phase) under `prefix`; an unknown one as it is. */
function useWordsOf(prefix: 'services.op' | 'services.phase'): (name: string) => string {
  const locale = useLocale();
  return (name) => {
    const key = `${prefix}.${name.replaceAll(' ', '_')}`;
    return isMessageKey(key) ? translateLoose(locale, key) : name;
  };
}

/** The operation's action in words (install, stop, checks…). */
export const useOperationLabel = (): ((action: string) => string) => useWordsOf('services.op');

export function ServiceOperation({ operation: op }: { operation: OperationView }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const opLabel = useOperationLabel();
  const phaseName = useWordsOf('services.phase');
  const title = t('services.operation.title', { action: opLabel(op.action), service: op.service, version: op.version });
  const { done, total } = op.progress;
  return (
    <section
      id="service-operation"
      className={`panel service-operation operation-${op.state}`}
      aria-labelledby="service-operation-title"
      data-testid="service-operation"
      data-operation-id={op.id}
      data-state={op.state}
    >
      <div className="panel-head">
        <h2 id="service-operation-title" className="panel-title">
          {title}
        </h2>
        <OperationStateBadge state={op.state} />
      </div>
      <p className="muted">
        {t('services.operation.requested', { by: op.requested_by, when: fmt.dateTimeLong(op.created_at) })}
        {op.finished_at ? (
          <>
            <span className="sep" aria-hidden="true">
              ·
            </span>
            {t('services.operation.finished', { when: fmt.dateTimeLong(op.finished_at) })}
          </>
        ) : null}
      </p>
      <div className="operation-progress">
        <progress
          max={Math.max(total, 1)}
          value={done}
          aria-label={t('services.operation.progressLabel', { operation: title })}
          data-testid="operation-progress"
        />
        <span aria-live="polite" data-testid="operation-progress-text">
          {t('services.operation.progress', { done, total })}
        </span>
      </div>
      {op.code ? (
        <p className="operation-failure" data-testid="operation-code">
          <CodeText code={op.code} />
          {op.message ? <span className="muted">{op.message}</span> : null}
        </p>
      ) : null}
      <ol className="plain-list operation-phases" aria-label={t('services.operation.phases')}>
        {op.phases.map((phase, i) => (
          <li key={i} className="operation-phase" data-testid="operation-phase" data-phase={i}>
            <h3 className="phase-title">
              {t('services.operation.phase', { n: i + 1, count: op.phases.length, name: phaseName(phase.name) })}
            </h3>
            {phase.plans.length === 0 ? (
              <p className="muted">
                {op.state === 'running'
                  ? t('services.operation.waiting', { hosts: phase.hosts.join(', ') })
                  : t('services.operation.notRun')}
              </p>
            ) : (
              phase.plans.map((plan) => <PlanTasks key={plan.command_id} plan={plan} />)
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
