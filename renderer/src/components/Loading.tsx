// The one "loading" line of the console: a spinner and its words, announced to assistive technology.
import type { ReactElement, ReactNode } from 'react';
import { useT } from '../app/stores';

export function Loading({ label, testId }: { label?: ReactNode; testId?: string }): ReactElement {
  const t = useT();
  return (
    <div className="loading" role="status" data-testid={testId}>
      <span className="spinner" aria-hidden="true" />
      {label ?? t('app.loading')}
    </div>
  );
}
