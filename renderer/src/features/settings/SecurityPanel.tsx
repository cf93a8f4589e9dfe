// The operator's own second factor: whether it is set up, and setting it up (a new authenticator needs an
// administrator's reset first: the manager refuses a second enrolment).
import { useState, type ReactElement } from 'react';
import { mfaEnrolmentStore, sessionStore, useSession, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { MfaEnrolment } from '../session/MfaEnrolment';
import { Panel } from '../../components/Panel';

export function SecurityPanel(): ReactElement {
  const t = useT();
  const mfa = useSession((s) => s.mfa);
  const [open, setOpen] = useState(false);
  return (
    <Panel titleId="security-title" title={t('mfa.title')} testId="security-panel">
      <p className="help">{t('mfa.help')}</p>
      <p data-testid="mfa-state" data-enrolled={mfa?.enrolled ? 'true' : 'false'}>
        {mfa?.enrolled ? (
          <Tone tone="ok">{t('mfa.enrolled')}</Tone>
        ) : (
          <Tone tone={mfa?.required ? 'bad' : 'neutral'}>{t('mfa.notEnrolled')}</Tone>
        )}
        {mfa?.required ? <span className="muted"> · {t('mfa.requiredForYou')}</span> : null}
      </p>
      {mfa?.enrolled && !open ? (
        <p className="help">{t('mfa.changeHelp')}</p>
      ) : open ? (
        <MfaEnrolment
          onDone={() => {
            setOpen(false);
            void sessionStore.getState().enrolmentDone();
          }}
        />
      ) : (
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            setOpen(true);
            void mfaEnrolmentStore.getState().start();
          }}
          data-testid="mfa-open"
        >
          {t('mfa.enrol.open')}
        </button>
      )}
    </Panel>
  );
}
