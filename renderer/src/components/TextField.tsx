// A labelled text control (input or textarea) in a Field: the value, what typing does, and the few attributes
// that differ between the console's forms. `code`: a name, address or key typed exactly (monospace, no
// spell-checking, no autocompletion).
import type { InputHTMLAttributes, ReactElement, Ref, TextareaHTMLAttributes } from 'react';
import { Field, type FieldProps } from './Field';

export interface TextFieldProps extends Omit<FieldProps, 'children'> {
  value: string;
  onChange: (value: string) => void;
  code?: boolean;
  placeholder?: string;
  /** The control's test id (by default its id); its error's is `<testId>-error`. */
  testId?: string;
  /** A textarea of this many rows instead of an input. */
  rows?: number;
  inputRef?: Ref<HTMLInputElement>;
  /** Any other attribute of the input (type, inputMode, autoComplete, disabled, …). */
  input?: InputHTMLAttributes<HTMLInputElement> & TextareaHTMLAttributes<HTMLTextAreaElement>;
}

export function TextField({ value, onChange, code, placeholder, testId, rows, inputRef, input, ...field }: TextFieldProps): ReactElement {
  const tid = testId ?? field.id;
  const common = {
    className: code ? 'mono' : undefined,
    value,
    placeholder,
    'data-testid': tid,
    ...(code ? { autoComplete: 'off', spellCheck: false } : {}),
  };
  return (
    <Field errorTestId={`${tid}-error`} {...field}>
      {rows ? (
        <textarea {...common} rows={rows} onChange={(e) => onChange(e.target.value)} {...input} />
      ) : (
        <input {...common} ref={inputRef} onChange={(e) => onChange(e.target.value)} {...input} />
      )}
    </Field>
  );
}
