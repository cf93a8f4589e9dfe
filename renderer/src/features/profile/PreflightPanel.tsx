// The latest preflight run of the open cluster (host facts, DNS, catalogue, capacity, versions, TLS and the
// profile's rules) and "Run checks".
import type { ReactElement } from 'react';
import type { PreflightOutcome } from '../../api/types';
import { profileStore, useFormat, useProfile, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { CheckList } from '../../components/CheckList';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Panel } from '../../components/Panel';
import type { BusyButtonLook } from '../../components/BusyButton';
import { WriteButton } from '../../components/WriteButton';

const RUN: BusyButtonLook = { text: ['preflight.run', 'preflight.running'], icon: 'checks', size: 'sm', testId: 'run-checks' };
const OUTCOME_TONE: Record<PreflightOutcome, 'ok' | 'pending' | 'bad'> = { pass: 'ok', warn: 'pending', fail: 'bad' };

export function OutcomeBadge({ outcome }: { outcome: PreflightOutcome }): ReactElement {
  const t = useT();
  return (
    <span data-testid="preflight-outcome" data-outcome={outcome}>
      <Tone tone={OUTCOME_TONE[outcome] ?? 'neutral'}>{t(`check.status.${outcome}`)}</Tone>
    </span>
  );
}

export function PreflightPanel(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { run, runStatus, runError, running } = useProfile.fields('run', 'runStatus', 'runError', 'running');

  return (
    <Panel
      titleId="preflight-title"
      title={t('preflight.title')}
      testId="preflight-panel"
      actions={<WriteButton {...RUN} busy={running.pending} onClick={profileStore.getState().runChecks} />}
    >
      <p className="help">{t('preflight.help')}</p>
      {running.error ? <ErrorNotice error={running.error} testId="run-checks-error" /> : null}
      {runError ? <ErrorNotice error={runError} testId="preflight-error" /> : null}
      {runStatus === 'missing' ? (
        <p className="muted" data-testid="preflight-none">
          {t('preflight.none')}
        </p>
      ) : null}
      {run ? (
        <div data-testid="preflight-run" data-run-id={run.id}>
          <p className="profile-head">
            <OutcomeBadge outcome={run.outcome} />
            <span className="muted">
              {t('preflight.ranBy', { when: fmt.dateTimeLong(run.finished_at), by: run.run_by, trigger: run.trigger })}
            </span>
          </p>
          <CheckList checks={run.checks} label={t('preflight.title')} testId="preflight-checks" />
        </div>
      ) : null}
    </Panel>
  );
}
