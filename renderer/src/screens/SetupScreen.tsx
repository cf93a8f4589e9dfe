// First run: create the first administrator with the token of the `#setup=TOKEN` link (POST /api/v1/setup).
import { useRef, useState, type FormEvent, type ReactElement } from 'react';
import { sessionStore, useSession, useT } from '../app/stores';
import { ErrorNotice } from '../components/ErrorNotice';
import { MIN_PASSWORD_LENGTH } from '../api/validation';
import { AuthLayout } from './AuthLayout';
import { TextField } from '../components/TextField';
import { useAutoFocus } from '../lib/useAutoFocus';

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
      {error ? <ErrorNotice error={error} testId="setup-error" /> : null}
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="setup-form">
        <TextField
          id="setup-name"
          label={t('setup.name')}
          inputRef={nameRef}
          value={name}
          onChange={(v) => {
            setName(v);
            setProblem(null);
          }}
          input={{
            name: 'username',
            autoComplete: 'username',
            autoCapitalize: 'none',
            spellCheck: false,
            'aria-invalid': problem === 'setup.nameMissing' || serverField === 'name' ? true : undefined,
          }}
        />
        <TextField
          id="setup-password"
          label={t('setup.password')}
          hint={t('setup.passwordHelp', { min: MIN_PASSWORD_LENGTH })}
          inputRef={passwordRef}
          value={password}
          onChange={(v) => {
            setPassword(v);
            setProblem(null);
          }}
          input={{
            name: 'new-password',
            type: 'password',
            autoComplete: 'new-password',
            'aria-invalid':
              problem === 'setup.passwordMissing' || problem === 'setup.passwordShort' || serverField === 'password' ? true : undefined,
          }}
        />
        <TextField
          id="setup-confirm"
          label={t('setup.confirm')}
          inputRef={confirmRef}
          value={confirm}
          onChange={(v) => {
            setConfirm(v);
            setProblem(null);
          }}
          input={{
            name: 'confirm-password',
            type: 'password',
            autoComplete: 'new-password',
            'aria-invalid': problem === 'setup.mismatch' ? true : undefined,
          }}
        />
        {problem ? (
          <p className="field-error" role="alert" data-testid="setup-problem">
            {problem === 'setup.passwordShort' ? t(problem, { min: MIN_PASSWORD_LENGTH }) : t(problem)}
          </p>
        ) : null}
        <button type="submit" className="btn btn-primary btn-block" disabled={pending} aria-busy={pending || undefined}>
          {pending ? t('setup.submitting') : t('setup.submit')}
        </button>
      </form>
    </AuthLayout>
  );
}
