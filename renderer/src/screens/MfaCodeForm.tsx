// The second step of a sign-in: the 6-digit code of the authenticator app, or one of the recovery codes.
import { useState, type FormEvent, type ReactElement } from 'react';
import { sessionStore, useSession, useT } from '../app/stores';
import { ErrorNotice } from '../components/ErrorNotice';
import { AuthLayout } from './AuthLayout';
import { TextField } from '../components/TextField';
import { useAutoFocus } from '../lib/useAutoFocus';

export function MfaCodeForm(): ReactElement {
  const t = useT();
  const { pending, error } = useSession.fields('pending', 'error');
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const ref = useAutoFocus<HTMLInputElement>();

  const onSubmit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (pending) return;
    if (!code.trim()) {
      setMissing(true);
      ref.current?.focus();
      return;
    }
    setMissing(false);
    if (!(await sessionStore.getState().submitMfaCode(code))) {
      setCode('');
      ref.current?.focus();
    }
  };

  return (
    <AuthLayout titleId="mfa-title" title={t('mfa.login.title')}>
      <p className="help">{t('mfa.login.help')}</p>
      {error ? <ErrorNotice error={error} testId="mfa-error" /> : null}
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="mfa-form">
        <TextField
          id="mfa-code"
          label={t('mfa.code')}
          hint={t('mfa.codeHelp')}
          inputRef={ref}
          value={code}
          onChange={setCode}
          input={{
            name: 'one-time-code',
            className: 'mono',
            autoComplete: 'one-time-code',
            autoCapitalize: 'none',
            spellCheck: false,
            'aria-invalid': missing || undefined,
          }}
        />
        {missing ? (
          <p className="field-error" role="alert">
            {t('mfa.codeMissing')}
          </p>
        ) : null}
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={pending}
          aria-busy={pending || undefined}
          data-testid="mfa-submit"
        >
          {pending ? t('login.submitting') : t('mfa.login.submit')}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-block"
          onClick={() => sessionStore.getState().cancelMfa()}
          data-testid="mfa-cancel"
        >
          {t('mfa.login.back')}
        </button>
      </form>
    </AuthLayout>
  );
}
