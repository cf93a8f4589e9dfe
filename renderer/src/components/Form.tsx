// A form the console checks itself (no browser validation) and sends without leaving the page: the submit's
// default is prevented here, so a screen's handler only says what sending does (and may be async).
import type { ReactElement, ReactNode } from 'react';
import { onEscape } from '../lib/onEscape';

export interface FormProps {
  onSubmit: () => unknown;
  /** Its classes; `form` unless said. */
  className?: string;
  /** The id of the heading that names it. */
  labelledBy?: string;
  testId?: string;
  /** Closes it on Escape. */
  onEscape?: () => void;
  children: ReactNode;
}

export function Form({ onSubmit, className = 'form', labelledBy, testId, onEscape: close, children }: FormProps): ReactElement {
  return (
    <form
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
      noValidate
      aria-labelledby={labelledBy}
      data-testid={testId}
      onKeyDown={close ? onEscape(close) : undefined}
    >
      {children}
    </form>
  );
}
