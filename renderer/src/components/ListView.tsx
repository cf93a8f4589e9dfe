// The states of a list the console loads: the loading line while nothing is there yet, the empty state once
// the manager answered with nothing, the list itself when it has rows (an error is shown by the caller).
import type { ReactElement, ReactNode } from 'react';
import { useT } from '../app/stores';
import type { LoadStatus } from '../features/clusters/store';
import type { PlainKey } from '../lib/plainKey';
import { EmptyState } from './EmptyState';
import type { IconName } from './Icon';
import { Loading } from './Loading';

/** What an empty list says: a screen declares it once, beside its columns. */
export interface EmptyList {
  icon: IconName;
  title: PlainKey;
  body?: PlainKey;
  testId: string;
}

export interface ListViewProps {
  status: LoadStatus;
  count: number;
  empty: EmptyList;
  children: ReactNode;
}

export function ListView({ status, count, empty, children }: ListViewProps): ReactElement | null {
  const t = useT();
  if (count > 0) return <>{children}</>;
  if (status === 'loading') return <Loading />;
  if (status !== 'ready') return null;
  return (
    <EmptyState icon={empty.icon} title={t(empty.title)} testId={empty.testId}>
      {empty.body === undefined ? undefined : <p>{t(empty.body)}</p>}
    </EmptyState>
  );
}
