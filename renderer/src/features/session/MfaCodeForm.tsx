// The second step of a sign-in: the 6-digit code of the authenticator app, or one of the recovery codes.
import { useState, type FormEvent, type ReactElement } from 'react';
import { sessionStore, useSession, useT } from '../../app/stores';
import { AuthForm, AuthLayout } from './AuthLayout';
import { TextField } from '../../components/TextField';
import { ONE_TIME_CODE_INPUT } from '../../lib/credentialInputs';
import { useAutoFocus } from '../../lib/useAutoFocus';
import { BusyButton } from '../../components/BusyButton';
import { Button } from '../../components/Button';

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
      <AuthForm name="mfa" error={error} onSubmit={onSubmit}>
        <TextField
          id="mfa-code"
          label={t('mfa.code')}
          hint={t('mfa.codeHelp')}
          inputRef={ref}
          value={code}
          onChange={setCode}
          input={{ ...ONE_TIME_CODE_INPUT, 'aria-invalid': missing || undefined }}
        />
        {missing ? (
          <p className="field-error" role="alert">
            {t('mfa.codeMissing')}
          </p>
        ) : null}
        <BusyButton submit busy={pending} text={['mfa.login.submit', 'login.submitting']} size="block" testId="mfa-submit" />
        <Button look="btn-ghost btn-block" onClick={() => sessionStore.getState().cancelMfa()} testId="mfa-cancel">
          {t('mfa.login.back')}
        </Button>
      </AuthForm>
    </AuthLayout>
  );
}
