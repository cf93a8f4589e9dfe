// Overview: the observed state and how many instances run, the versions, the three check results side by side
// (liveness per instance, readiness, functional test), the open drift and the newest operation.
import type { ReactElement } from 'react';
import type { CheckOutcome } from '../../../../preload/api';
import { useFormat, useServiceSheet, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { Panel } from '../../components/Panel';
import { sheetHash } from '../../stores/router';
import { OperationStateBadge, useOperationLabel } from '../services/ServiceOperation';
import { ObservedStateBadge } from './ObservedStateBadge';

function Outcome({ outcome, at, testId }: { outcome: CheckOutcome | null; at: string | null; testId: string }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  if (!outcome)
    return (
      <span data-testid={testId} data-status="none">
        {t('sheet.check.none')}
      </span>
    );
  return (
    <span data-testid={testId} data-status={outcome.status}>
      <Tone tone={outcome.status === 'pass' ? 'ok' : 'bad'}>{t(`sheet.check.${outcome.status}`)}</Tone>{' '}
      {at ? <span className="muted">{fmt.dateTime(at)}</span> : null}
      {outcome.error ? (
        <>
          {' '}
          <code>{outcome.error.code}</code> {outcome.error.message}
        </>
      ) : null}
    </span>
  );
}

export function SheetOverview({ clusterId, service }: { clusterId: string; service: string }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const opLabel = useOperationLabel();
  const sheet = useServiceSheet((s) => s.sheet.value)!;
  const o = sheet.overview;
  const liveness = Object.entries(o.checks?.liveness ?? {});
  const hostName = (id: string) => sheet.instances.find((i) => i.host_id === id)?.name ?? id;
  return (
    <div className="sheet-overview" data-testid="sheet-overview">
      <Panel titleId="sheet-overview-state" title={t('sheet.overview.state')} icon="node">
        <dl className="facts">
          <dt>{t('sheet.overview.observed')}</dt>
          <dd>
            <ObservedStateBadge state={o.state} testId="overview-state" />{' '}
            <span data-testid="overview-running">
              {t('sheet.overview.running', { running: o.instances.running, total: o.instances.total })}
            </span>
          </dd>
          <dt>{t('sheet.overview.observedAt')}</dt>
          <dd>{o.observed_at ? fmt.dateTimeLong(o.observed_at) : '—'}</dd>
          <dt>{t('sheet.overview.version')}</dt>
          <dd data-testid="overview-version">{o.version ? <code>{o.version}</code> : '—'}</dd>
          {o.reported_version ? (
            <>
              <dt>{t('sheet.overview.reportedVersion')}</dt>
              <dd data-testid="overview-reported-version">
                <code>{o.reported_version}</code>
              </dd>
            </>
          ) : null}
          <dt>{t('sheet.overview.configVersion')}</dt>
          <dd>{o.config_version ?? '—'}</dd>
          <dt>{t('sheet.overview.operation')}</dt>
          <dd data-testid="overview-operation">
            {o.operation ? (
              <>
                <a href={sheetHash(clusterId, service, 'operations')}>{opLabel(o.operation.action)}</a>{' '}
                <OperationStateBadge state={o.operation.state as 'running'} />
                {o.operation.finished_at ? <span className="muted"> {fmt.dateTime(o.operation.finished_at)}</span> : null}
              </>
            ) : (
              '—'
            )}
          </dd>
        </dl>
      </Panel>
      <Panel titleId="sheet-overview-checks" title={t('sheet.overview.checks')} icon="check" testId="overview-checks">
        <dl className="facts">
          <dt>{t('sheet.check.liveness')}</dt>
          <dd>
            {liveness.length === 0 ? <Outcome outcome={null} at={null} testId="overview-liveness" /> : null}
            <ul className="plain-list">
              {liveness.map(([id, l]) => (
                <li key={id}>
                  {hostName(id)} · <Outcome outcome={l.outcome} at={l.at} testId="overview-liveness" />
                </li>
              ))}
            </ul>
          </dd>
          <dt>{t('sheet.check.readiness')}</dt>
          <dd>
            <Outcome outcome={o.checks?.readiness?.outcome ?? null} at={o.checks?.readiness?.at ?? null} testId="overview-readiness" />
          </dd>
          <dt>{t('sheet.check.functional')}</dt>
          <dd>
            <Outcome outcome={o.checks?.functional?.outcome ?? null} at={o.checks?.functional?.at ?? null} testId="overview-functional" />
          </dd>
        </dl>
      </Panel>
      <Panel titleId="sheet-overview-drift" title={t('sheet.overview.drift')} icon="warning" testId="overview-drift">
        {o.open_drift.length === 0 ? (
          <p className="muted" data-testid="overview-drift-none">
            {t('sheet.overview.noDrift')}
          </p>
        ) : (
          <ul className="plain-list">
            {o.open_drift.map((d) => (
              <li key={`${d.host_name}:${d.path}`} data-testid="overview-drift-item">
                <code>{d.path}</code> · {d.host_name} · {t(`sheet.drift.${d.state as 'modified'}`)}
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
