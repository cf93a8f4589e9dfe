// The states of a list the console loads: the loading line while nothing is there yet, the empty state once
// the manager answered with nothing, the list itself when it has rows (an error is shown by the caller).
import type { ReactElement, ReactNode } from 'react';
import type { LoadStatus } from '../features/clusters/store';
import { EmptyState } from './EmptyState';
import type { IconName } from './Icon';
import { Loading } from './Loading';

export interface ListViewProps {
  status: LoadStatus;
  count: number;
  empty: { icon: IconName; title: string; body?: ReactNode; testId: string };
  children: ReactNode;
}

export function ListView({ status, count, empty, children }: ListViewProps): ReactElement | null {
  if (count > 0) return <>{children}</>;
  if (status === 'loading') return <Loading />;
  if (status !== 'ready') return null;
  return (
    <EmptyState icon={empty.icon} title={empty.title} testId={empty.testId}>
      {empty.body === undefined ? undefined : <p>{empty.body}</p>}
    </EmptyState>
  );
}
