// A new password and its confirmation, as the first administrator's setup and the new user form ask for them:
// the same labels, the length rule under the password, and inputs password managers know as a new password.
import type { ReactElement, Ref } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../preload/api';
import { useT } from '../app/stores';
import { NEW_PASSWORD_INPUT } from '../lib/credentialInputs';
import { TextField, type TextFieldProps } from './TextField';

export type NewPasswordField = 'password' | 'confirm';

export interface NewPasswordFieldsProps {
  /** The controls' ids are `<idPrefix>-password` and `<idPrefix>-confirm`. */
  idPrefix: string;
  values: Record<NewPasswordField, string>;
  onChange: (field: NewPasswordField, value: string) => void;
  /** Focused by the form when its check fails on that field. */
  refs?: Partial<Record<NewPasswordField, Ref<HTMLInputElement>>>;
  /** Attributes of an input beyond a new password's (its name, marked invalid). */
  inputs?: Partial<Record<NewPasswordField, TextFieldProps['input']>>;
}

export function NewPasswordFields({ idPrefix, values, onChange, refs, inputs }: NewPasswordFieldsProps): ReactElement {
  const t = useT();
  const field = (name: NewPasswordField) => ({
    id: `${idPrefix}-${name}`,
    inputRef: refs?.[name],
    value: values[name],
    onChange: (value: string) => onChange(name, value),
    input: { ...NEW_PASSWORD_INPUT, ...inputs?.[name] },
  });
  return (
    <>
      <TextField label={t('setup.password')} hint={t('setup.passwordHelp', { min: MIN_PASSWORD_LENGTH })} {...field('password')} />
      <TextField label={t('setup.confirm')} {...field('confirm')} />
    </>
  );
}
