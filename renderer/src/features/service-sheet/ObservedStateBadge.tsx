// A service's or an instance's state as the agents observed it, worded and toned.
import type { ReactElement } from 'react';
import type { InstanceState, ObservedState } from '../../../../preload/api';
import { useT } from '../../app/stores';
import { Tone } from '../../components/Badges';

const TONE: Record<ObservedState | InstanceState, 'ok' | 'bad' | 'pending' | 'neutral'> = {
  running: 'ok',
  degraded: 'pending',
  starting: 'pending',
  stopping: 'pending',
  stopped: 'neutral',
  failed: 'bad',
  missing: 'bad',
  not_observed: 'neutral',
};

export function ObservedStateBadge({ state, testId }: { state: ObservedState | InstanceState; testId?: string }): ReactElement {
  const t = useT();
  return (
    <span data-testid={testId} data-state={state}>
      <Tone tone={TONE[state]}>{t(`sheet.state.${state}`)}</Tone>
    </span>
  );
}
