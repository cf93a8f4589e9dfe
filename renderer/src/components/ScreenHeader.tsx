// The header every screen opens with: its title (focused on navigation, hence the id and tabIndex), an
// optional subtitle and the screen's actions on the right.
import type { ReactElement, ReactNode } from 'react';

export function ScreenHeader({
  title,
  subtitle,
  actions,
  titleClassName,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  titleClassName?: string;
}): ReactElement {
  return (
    <header className="page-header">
      <div className="page-heading">
        <h1 id="screen-title" className={titleClassName ? `page-title ${titleClassName}` : 'page-title'} tabIndex={-1}>
          {title}
        </h1>
        {subtitle ? <p className="page-subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}
