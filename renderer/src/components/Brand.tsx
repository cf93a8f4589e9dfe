import type { ReactElement } from 'react';
import { useT } from '../app/stores';
import { Icon } from './Icon';

export function Brand(): ReactElement {
  const t = useT();
  return (
    <span className="brand">
      <Icon name="logo" className="brand-logo" />
      <span className="brand-name">{t('app.name')}</span>
    </span>
  );
}
