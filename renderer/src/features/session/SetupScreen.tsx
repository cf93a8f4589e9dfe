// First run: create the first administrator with the token of the `#setup=TOKEN` link (POST /api/v1/setup).
import { useRef, useState, type FormEvent, type ReactElement } from 'react';
import { sessionStore, useSession, useT } from '../../app/stores';
import { MIN_PASSWORD_LENGTH } from '../../../../preload/api';
import { AuthForm, AuthLayout } from './AuthLayout';
import { USERNAME_INPUT } from '../../lib/credentialInputs';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { TextField } from '../../components/TextField';
import { useAutoFocus } from '../../lib/useAutoFocus';
import { BusyButton } from '../../components/BusyButton';

type Problem = 'setup.nameMissing' | 'setup.passwordMissing' | 'setup.passwordShort' | 'setup.mismatch';

export function SetupScreen(): ReactElement {
  const t = useT();
  const { pending, error } = useSession.fields('pending', 'error');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const nameRef = useAutoFocus<HTMLInputElement>();
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);

  const serverField = error?.field;
  /** A field's change clears the problem shown. */
  const edit =
    (set: (value: string) => void) =>
    (value: string): void => {
      set(value);
      setProblem(null);
    };

  const onSubmit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (pending) return;
    const trimmed = name.trim();
    const p: Problem | null = !trimmed
      ? 'setup.nameMissing'
      : !password
        ? 'setup.passwordMissing'
        : password.length < MIN_PASSWORD_LENGTH
          ? 'setup.passwordShort'
          : password !== confirm
            ? 'setup.mismatch'
            : null;
    setProblem(p);
    if (p) {
      (p === 'setup.nameMissing' ? nameRef : p === 'setup.mismatch' ? confirmRef : passwordRef).current?.focus();
      return;
    }
    await sessionStore.getState().setup(trimmed, password);
  };

  return (
    <AuthLayout titleId="setup-title" title={t('setup.title')}>
      <p className="auth-intro">{t('setup.intro')}</p>
      <AuthForm name="setup" error={error} onSubmit={onSubmit}>
        <TextField
          id="setup-name"
          label={t('setup.name')}
          inputRef={nameRef}
          value={name}
          onChange={edit(setName)}
          input={{
            ...USERNAME_INPUT,
            'aria-invalid': problem === 'setup.nameMissing' || serverField === 'name' ? true : undefined,
          }}
        />
        <NewPasswordFields
          idPrefix="setup"
          values={{ password, confirm }}
          onChange={(field, value) => edit(field === 'password' ? setPassword : setConfirm)(value)}
          refs={{ password: passwordRef, confirm: confirmRef }}
          inputs={{
            password: {
              name: 'new-password',
              'aria-invalid':
                problem === 'setup.passwordMissing' || problem === 'setup.passwordShort' || serverField === 'password' ? true : undefined,
            },
            confirm: { name: 'confirm-password', 'aria-invalid': problem === 'setup.mismatch' ? true : undefined },
          }}
        />
        {problem ? (
          <p className="field-error" role="alert" data-testid="setup-problem">
            {problem === 'setup.passwordShort' ? t(problem, { min: MIN_PASSWORD_LENGTH }) : t(problem)}
          </p>
        ) : null}
        <BusyButton submit busy={pending} text={['setup.submit', 'setup.submitting']} size="block" />
      </AuthForm>
    </AuthLayout>
  );
}
