// What a sheet tab says when its agents observed nothing for it: why, in the operator's language.
import type { ReactElement } from 'react';
import type { UnobservedReason } from '../../../../preload/api';
import { useT } from '../../app/stores';
import { EmptyState } from '../../components/EmptyState';

export function Unobserved({ reason }: { reason: UnobservedReason }): ReactElement {
  const t = useT();
  return (
    <EmptyState icon="info" title={t('sheet.unobserved.title')} testId="sheet-unobserved">
      <p data-reason={reason} data-testid="sheet-unobserved-reason">
        {t(`sheet.reason.${reason}`)}
      </p>
    </EmptyState>
  );
}
