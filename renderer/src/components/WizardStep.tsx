// One step of a wizard: a numbered panel of the list of steps (`<ol className="steps">`), with its title.
import type { ReactElement, ReactNode } from 'react';

export interface WizardStepProps {
  /** The title's id, which labels the step. */
  id: string;
  number: number;
  title: ReactNode;
  className?: string;
  testId?: string;
  children: ReactNode;
}

export function WizardStep({ id, number, title, className, testId, children }: WizardStepProps): ReactElement {
  return (
    <li className={className ? `panel step ${className}` : 'panel step'} aria-labelledby={id} data-testid={testId}>
      <h2 id={id} className="panel-title">
        <span className="step-number" aria-hidden="true">
          {number}
        </span>
        {title}
      </h2>
      {children}
    </li>
  );
}
