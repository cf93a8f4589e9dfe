// A panel of a screen: a section titled by its heading (the id ties them for assistive technology), with the
// panel's actions beside the title when it has some.
import type { ReactElement, ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

export interface PanelProps {
  /** The heading's id; the section is labelled by it. */
  titleId: string;
  title: ReactNode;
  /** An icon before the title. */
  icon?: IconName;
  /** Buttons beside the title (the heading then sits in a `.panel-head` row). */
  actions?: ReactNode;
  /** Extra classes beside `panel`. */
  className?: string;
  testId?: string;
  /** Other data-* attributes of the section. */
  data?: Record<`data-${string}`, string | undefined>;
  children?: ReactNode;
}

export function Panel({ titleId, title, icon, actions, className, testId, data, children }: PanelProps): ReactElement {
  const heading = (
    <h2 id={titleId} className="panel-title">
      {icon ? <Icon name={icon} /> : null}
      {title}
    </h2>
  );
  return (
    <section className={className ? `panel ${className}` : 'panel'} aria-labelledby={titleId} data-testid={testId} {...data}>
      {actions === undefined ? (
        heading
      ) : (
        <div className="panel-head">
          {heading}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}
