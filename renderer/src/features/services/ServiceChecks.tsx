// The latest check results of an installed service: liveness on each of its hosts, readiness and the
// functional test (each pass or fail, when, and the failure's code).
import type { ReactElement } from 'react';
import type { CheckOutcome, ServiceView } from '../../../../preload/api';
import { useFormat, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';

type Role = 'liveness' | 'readiness' | 'functional';

export function ServiceChecks({ service }: { service: ServiceView }): ReactElement {
  const t = useT();
  const c = service.checks;
  if (!c) return <span className="muted">{t('services.checks.none')}</span>;
  // In the order of the service's hosts.
  const liveness = service.hosts.flatMap((h) => {
    const r = c.liveness[h.id];
    return r ? [{ host: h.name, ...r }] : [];
  });
  return (
    <dl className="service-checks" data-testid="service-checks">
      <dt>{t('services.checks.liveness')}</dt>
      <dd>
        {liveness.length === 0
          ? '—'
          : liveness.map((r) => <CheckResult key={r.host} role="liveness" at={r.at} outcome={r.outcome} host={r.host} />)}
      </dd>
      <dt>{t('services.checks.readiness')}</dt>
      <dd>{c.readiness ? <CheckResult role="readiness" at={c.readiness.at} outcome={c.readiness.outcome} /> : '—'}</dd>
      <dt>{t('services.checks.functional')}</dt>
      <dd>{c.functional ? <CheckResult role="functional" at={c.functional.at} outcome={c.functional.outcome} /> : '—'}</dd>
    </dl>
  );
}

function CheckResult({ role, at, outcome, host }: { role: Role; at: string; outcome: CheckOutcome; host?: string }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  return (
    <span
      className="check-result"
      title={t('services.checks.at', { when: fmt.dateTimeLong(at) })}
      data-testid="service-check"
      data-role={role}
      data-status={outcome.status}
    >
      {host ? <span className="check-host">{host}</span> : null}
      <Tone tone={outcome.status === 'pass' ? 'ok' : 'bad'}>{t(`check.status.${outcome.status}`)}</Tone>
      {outcome.error ? <code className="check-code">{outcome.error.code}</code> : null}
    </span>
  );
}
