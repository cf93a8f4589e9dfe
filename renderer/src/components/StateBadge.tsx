import type { ReactElement } from 'react';
import type { ClusterState } from '../../../preload/api';
import { isMessageKey, translateLoose } from '../i18n';
import { useLocale } from '../app/stores';

/** The tone of each state (styles/tones.css). */
const STATE_TONE: Record<ClusterState, 'ok' | 'pending' | 'neutral' | 'bad'> = {
  connected: 'ok',
  pending: 'pending',
  offline: 'neutral',
  revoked: 'bad',
};

export function StateBadge({ state }: { state: ClusterState }): ReactElement {
  const locale = useLocale();
  const key = `state.${state}`;
  const label = isMessageKey(key) ? translateLoose(locale, key) : state;
  return (
    <span className={`badge badge-state tone-${STATE_TONE[state] ?? 'neutral'}`} data-state={state}>
      <span className="badge-dot" aria-hidden="true" />
      {label}
    </span>
  );
}
