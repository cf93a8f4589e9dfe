import type { ReactElement, ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

export function EmptyState({
  icon,
  title,
  children,
  actions,
  testId,
}: {
  icon: IconName;
  title: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}): ReactElement {
  return (
    <div className="empty-state" data-testid={testId}>
      <div className="empty-icon" aria-hidden="true">
        <Icon name={icon} />
      </div>
      <h2 className="empty-title">{title}</h2>
      {children ? <div className="empty-body">{children}</div> : null}
      {actions ? <div className="empty-actions">{actions}</div> : null}
    </div>
  );
}
