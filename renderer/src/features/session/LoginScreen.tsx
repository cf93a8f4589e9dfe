// Sign in with a name and a password (POST /api/v1/session), then the second factor when the manager asks for
// it. Errors show their stable code and what to do.
import { useRef, useState, type FormEvent, type ReactElement } from 'react';
import { sessionStore, useSession, useT } from '../../app/stores';
import { InfoNotice } from '../../components/ErrorNotice';
import { Trans } from '../../components/Trans';
import { AuthForm, AuthLayout } from './AuthLayout';
import { CURRENT_PASSWORD_INPUT, USERNAME_INPUT } from '../../lib/credentialInputs';
import { MfaCodeForm } from './MfaCodeForm';
import { TextField } from '../../components/TextField';
import { useAutoFocus } from '../../lib/useAutoFocus';
import { BusyButton } from '../../components/BusyButton';

export function LoginScreen(): ReactElement {
  const challenge = useSession((s) => s.mfaChallenge);
  return challenge ? <MfaCodeForm /> : <PasswordForm />;
}

function PasswordForm(): ReactElement {
  const t = useT();
  const { pending, error, notice, setupNeeded } = useSession.fields('pending', 'error', 'notice', 'setupNeeded');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const nameRef = useAutoFocus<HTMLInputElement>();
  const passwordRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (pending) return;
    const trimmed = name.trim();
    if (!trimmed || !password) {
      setMissing(true);
      (trimmed ? passwordRef : nameRef).current?.focus();
      return;
    }
    setMissing(false);
    const ok = await sessionStore.getState().login(trimmed, password);
    if (!ok) {
      setPassword('');
      passwordRef.current?.focus();
    }
  };

  return (
    <AuthLayout titleId="login-title" title={t('login.title')}>
      {notice ? <InfoNotice testId="login-notice">{t(`login.notice.${notice}`)}</InfoNotice> : null}
      <AuthForm name="login" error={error} onSubmit={onSubmit}>
        <TextField
          id="login-name"
          label={t('login.name')}
          inputRef={nameRef}
          value={name}
          onChange={setName}
          input={{
            ...USERNAME_INPUT,
            type: 'text',
            'aria-invalid': missing && !name.trim() ? true : undefined,
            'aria-describedby': missing ? 'login-missing' : undefined,
          }}
        />
        <TextField
          id="login-password"
          label={t('login.password')}
          inputRef={passwordRef}
          value={password}
          onChange={setPassword}
          input={{
            ...CURRENT_PASSWORD_INPUT,
            'aria-invalid': missing && !password ? true : undefined,
            'aria-describedby': missing ? 'login-missing' : undefined,
          }}
        />
        {missing ? (
          <p id="login-missing" className="field-error" role="alert">
            {t('login.missing')}
          </p>
        ) : null}
        <BusyButton submit busy={pending} text={['login.submit', 'login.submitting']} size="block" />
      </AuthForm>
      <p className="auth-hint" data-testid={setupNeeded ? 'setup-needed' : undefined}>
        {setupNeeded ? (
          <Trans k="login.setupNeeded" params={{ command: <code>navin-manager serve</code> }} />
        ) : (
          <Trans k="login.ticketHint" params={{ command: <code>navin-manager serve</code> }} />
        )}
      </p>
    </AuthLayout>
  );
}
