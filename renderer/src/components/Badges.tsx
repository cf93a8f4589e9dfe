// State badges of commands and report verdicts (the cluster state has StateBadge).
import type { ReactElement, ReactNode } from 'react';
import { isMessageKey, translateLoose } from '../i18n';
import { useLocale } from '../app/stores';

const COMMAND_TONE: Record<string, string> = { queued: 'pending', delivered: 'info', succeeded: 'ok', failed: 'bad', rejected: 'bad' };

export function CommandStateBadge({ state }: { state: string }): ReactElement {
  const locale = useLocale();
  const key = `command.state.${state}`;
  return (
    <span className={`badge tone-${COMMAND_TONE[state] ?? 'neutral'}`} data-command-state={state} data-testid="command-state">
      <span className="badge-dot" aria-hidden="true" />
      {isMessageKey(key) ? translateLoose(locale, key) : state}
    </span>
  );
}

const VERDICT_TONE: Record<string, string> = { PASS: 'ok', WARN: 'pending', FAIL: 'bad', BLOCKED: 'pending' };

export function VerdictBadge({ verdict }: { verdict: string }): ReactElement {
  const locale = useLocale();
  const key = `verdict.${verdict}`;
  return (
    <span className={`badge badge-verdict tone-${VERDICT_TONE[verdict] ?? 'neutral'}`} data-verdict={verdict} data-testid="verdict">
      {isMessageKey(key) ? translateLoose(locale, key) : verdict}
    </span>
  );
}

export function Tone({
  tone,
  children,
  testId,
}: {
  tone: 'ok' | 'bad' | 'pending' | 'info' | 'neutral';
  children: ReactNode;
  testId?: string;
}): ReactElement {
  return (
    <span className={`badge tone-${tone}`} data-testid={testId}>
      <span className="badge-dot" aria-hidden="true" />
      {children}
    </span>
  );
}
