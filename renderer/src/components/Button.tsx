// A button that acts on the page (not a submit): its look (classes beside `btn`), an icon before its words, and
// the name assistive technology reads when the words alone do not say what it acts on.
import type { ReactElement, ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

export interface ButtonProps {
  /** Classes beside `btn` (`btn-sm`, `btn-primary`, `btn-danger-ghost`…). */
  look?: string;
  icon?: IconName;
  onClick: () => void;
  /** Read instead of the words (e.g. which row it acts on). */
  label?: string;
  disabled?: boolean;
  /** For a button that opens something below it. */
  expanded?: boolean;
  testId?: string;
  children: ReactNode;
}

export function Button({ look, icon, onClick, label, disabled, expanded, testId, children }: ButtonProps): ReactElement {
  return (
    <button
      type="button"
      className={look ? `btn ${look}` : 'btn'}
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      aria-expanded={expanded}
      data-testid={testId}
    >
      {icon ? <Icon name={icon} /> : null}
      {children}
    </button>
  );
}
