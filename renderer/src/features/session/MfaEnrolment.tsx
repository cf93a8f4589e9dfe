// Setting up the authenticator app: the QR code (the server's SVG as an image, never as markup) and the
// secret for manual entry, a first code to confirm, then the recovery codes shown once to save.
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { mfaEnrolmentStore, useMfaEnrolment, useT } from '../../app/stores';
import { CopyButton, SaveButton } from '../../components/CodeBlock';
import { ErrorNotice } from '../../components/ErrorNotice';
import { svgDataUrl } from './mfaEnrolmentStore';

/** `onDone` runs when the operator has saved the recovery codes. */
export function MfaEnrolment({ onDone }: { onDone: () => void }): ReactElement {
  const t = useT();
  const { enrolment, recoveryCodes: codes, pending, error } = useMfaEnrolment.fields('enrolment', 'recoveryCodes', 'pending', 'error');

  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;

  return (
    <div className="mfa-enrolment" data-testid="mfa-enrolment">
      {error ? <ErrorNotice error={error} testId="mfa-enrolment-error" /> : null}
      {enrolment ? (
        <>
          <p className="help">{t('mfa.enrol.scan')}</p>
          <img
            className="qr-code"
            src={svgDataUrl(enrolment.qr_svg)}
            alt={t('mfa.enrol.qrAlt', { account: enrolment.account })}
            data-testid="mfa-qr"
          />
          <p className="help">{t('mfa.enrol.manual')}</p>
          <p>
            <code className="selectable" data-testid="mfa-secret">
              {enrolment.secret}
            </code>{' '}
            <CopyButton text={enrolment.secret} testId="mfa-secret-copy" />
          </p>
          <ConfirmCode />
        </>
      ) : (
        <button
          type="button"
          className="btn btn-primary"
          disabled={pending}
          onClick={() => void mfaEnrolmentStore.getState().start()}
          data-testid="mfa-start"
        >
          {pending ? t('app.loading') : t('mfa.enrol.start')}
        </button>
      )}
    </div>
  );
}

function ConfirmCode(): ReactElement {
  const t = useT();
  const pending = useMfaEnrolment((s) => s.pending);
  const [code, setCode] = useState('');
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const onSubmit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (pending || !code.trim()) return;
    if (!(await mfaEnrolmentStore.getState().confirm(code))) setCode('');
  };
  return (
    <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="mfa-confirm-form">
      <div className="field">
        <label htmlFor="mfa-confirm-code">{t('mfa.enrol.code')}</label>
        <input
          ref={ref}
          id="mfa-confirm-code"
          className="mono"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          data-testid="mfa-confirm-code"
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={pending || !code.trim()} data-testid="mfa-confirm">
          {pending ? t('mfa.enrol.confirming') : t('mfa.enrol.confirm')}
        </button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }): ReactElement {
  const t = useT();
  const text = `${codes.join('\n')}\n`;
  return (
    <div className="mfa-recovery" data-testid="mfa-recovery">
      <div className="notice notice-info" role="alert">
        <div className="notice-body">
          <p className="notice-title">{t('mfa.recovery.title')}</p>
          <p className="notice-hint">{t('mfa.recovery.help')}</p>
        </div>
      </div>
      <ul className="plain-list recovery-codes" data-testid="mfa-recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <CopyButton text={text} testId="mfa-recovery-copy" small={false} />
        <SaveButton text={text} fileName="navin-recovery-codes.txt" mediaType="text/plain" testId="mfa-recovery-save" />
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            mfaEnrolmentStore.getState().finish();
            onDone();
          }}
          data-testid="mfa-recovery-done"
        >
          {t('mfa.recovery.done')}
        </button>
      </div>
    </div>
  );
}
