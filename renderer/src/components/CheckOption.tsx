// A checkbox with its words in one label, which tells the screen the new state (a filter, following the logs).
import type { ReactElement, ReactNode } from 'react';

export function CheckOption({
  checked,
  onChange,
  className,
  testId,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The label's class: check-inline in a toolbar, radio-option in a form. */
  className: string;
  testId: string;
  children: ReactNode;
}): ReactElement {
  return (
    <label className={className}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} data-testid={testId} />
      {children}
    </label>
  );
}
