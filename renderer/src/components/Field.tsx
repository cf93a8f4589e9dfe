// One labelled form control: the label (with its required/optional note), the control given as the only child,
// its hint and its error, wired together by id so assistive technology reads the hint and the error with it.
import { cloneElement, type ReactElement, type ReactNode } from 'react';
import { useT } from '../app/stores';

interface ControlProps {
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
}

export interface FieldProps {
  /** The control's id: the label points at it; the hint and the error are `${id}-help` and `${id}-error`. */
  id: string;
  label: ReactNode;
  note?: 'required' | 'optional';
  hint?: ReactNode;
  /** The message shown under the control; the control is marked invalid while there is one. */
  error?: ReactNode;
  /** Where several controls share one message (their error ids then match). */
  errorId?: string;
  errorTestId?: string;
  /** A control beside the label, e.g. a file picker filling the control. */
  labelAction?: ReactNode;
  /** A passing note announced with the error (e.g. which file was loaded). */
  status?: ReactNode;
  /** Extra classes of the wrapper (e.g. `field-wide`). */
  className?: string;
  children: ReactElement<ControlProps>;
}

export function Field({
  id,
  label,
  note,
  hint,
  error,
  errorId,
  errorTestId,
  labelAction,
  status,
  className,
  children,
}: FieldProps): ReactElement {
  const t = useT();
  const hintId = `${id}-help`;
  const errId = errorId ?? `${id}-error`;
  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const own = children.props['aria-describedby'];
  const describedBy = [own, hint ? hintId : null, hasError ? errId : null].filter(Boolean).join(' ') || undefined;
  const control = cloneElement(children, {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': hasError ? true : children.props['aria-invalid'],
  });
  const labelElement = (
    <label htmlFor={id}>
      {label}
      {note ? (
        <>
          {' '}
          <span className="label-note">({t(note === 'required' ? 'common.required' : 'common.optional')})</span>
        </>
      ) : null}
    </label>
  );
  return (
    <div className={className ? `field ${className}` : 'field'}>
      {labelAction ? (
        <div className="field-label-row">
          {labelElement}
          {labelAction}
        </div>
      ) : (
        labelElement
      )}
      {control}
      {hint ? (
        <p id={hintId} className="help">
          {hint}
        </p>
      ) : null}
      <div className="field-live" aria-live="polite">
        {status ? <p className="help">{status}</p> : null}
        {hasError ? (
          <p id={errId} className="field-error" data-testid={errorTestId}>
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
