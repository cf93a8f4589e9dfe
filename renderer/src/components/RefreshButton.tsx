// The icon button that reads a screen's data again.
import type { ReactElement } from 'react';
import { useT } from '../app/stores';
import { Icon } from './Icon';

export function RefreshButton({ onClick }: { onClick: () => void }): ReactElement {
  const t = useT();
  return (
    <button type="button" className="btn" onClick={onClick} title={t('common.refresh')} aria-label={t('common.refresh')}>
      <Icon name="refresh" />
    </button>
  );
}
