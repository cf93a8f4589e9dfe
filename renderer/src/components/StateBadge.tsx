import type { ReactElement } from 'react';
import type { ClusterState } from '../../../preload/api';
import { isMessageKey, translateLoose } from '../i18n';
import { useLocale } from '../app/stores';

export function StateBadge({ state }: { state: ClusterState }): ReactElement {
  const locale = useLocale();
  const key = `state.${state}`;
  const label = isMessageKey(key) ? translateLoose(locale, key) : state;
  return (
    <span className={`badge badge-state state-${state}`} data-state={state}>
      <span className="badge-dot" aria-hidden="true" />
      {label}
    </span>
  );
}
