// Profile rules and preflight checks: status, whether it stops the operation, the reason in the operator's
// language, and the evidence (what was run, what was seen) as JSON on demand.
import type { ReactElement } from 'react';
import type { CheckResult, CheckStatus } from '../api/types';
import { useLocale, useT } from '../app/stores';
import { pickText } from '../lib/bilingual';
import { Tone } from './Badges';
import { CodeBlock } from './CodeBlock';

const TONE: Record<CheckStatus, 'ok' | 'pending' | 'bad'> = { pass: 'ok', warn: 'pending', fail: 'bad' };

export function CheckStatusBadge({ status }: { status: CheckStatus }): ReactElement {
  const t = useT();
  return (
    <span data-check-status={status}>
      <Tone tone={TONE[status] ?? 'neutral'} testId="check-status">
        {t(`check.status.${status}`)}
      </Tone>
    </span>
  );
}

export function CheckList({
  checks,
  label,
  testId = 'check-list',
  showCritical = true,
}: {
  checks: readonly CheckResult[];
  label: string;
  testId?: string;
  showCritical?: boolean;
}): ReactElement {
  const t = useT();
  if (checks.length === 0) return <p className="muted">{t('check.none')}</p>;
  return (
    <ul className="check-list" aria-label={label} data-testid={testId}>
      {checks.map((c) => (
        <CheckItem key={c.id} check={c} showCritical={showCritical} />
      ))}
    </ul>
  );
}

function CheckItem({ check, showCritical }: { check: CheckResult; showCritical: boolean }): ReactElement {
  const t = useT();
  const locale = useLocale();
  const reason = pickText(check.reason, locale);
  return (
    <li className={`check-item check-${check.status}`} data-testid="check-item" data-check-id={check.id} data-check-status={check.status}>
      <div className="check-head">
        <CheckStatusBadge status={check.status} />
        <span className="check-title">{pickText(check.title, locale) || check.id}</span>
        <code className="muted check-id">{check.id}</code>
        {showCritical && check.critical ? <span className="badge tone-bad check-critical">{t('check.critical')}</span> : null}
      </div>
      {reason ? (
        <p className="check-reason" data-testid="check-reason">
          {reason}
        </p>
      ) : null}
      <details className="advanced check-evidence">
        <summary>{t('check.evidence')}</summary>
        <CodeBlock
          text={JSON.stringify(check.evidence ?? {}, null, 2)}
          label={t('check.evidenceOf', { id: check.id })}
          testId="check-evidence"
        />
      </details>
    </li>
  );
}
