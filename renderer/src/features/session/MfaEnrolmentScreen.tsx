// Shown instead of the console while the profiles require a second factor this operator has not set up:
// the manager refuses every other call until it is (403 mfa_enrollment_required).
import type { ReactElement } from 'react';
import { sessionStore, useSession, useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { AuthLayout } from './AuthLayout';
import { MfaEnrolment } from './MfaEnrolment';

export function MfaEnrolmentScreen(): ReactElement {
  const t = useT();
  const { user, error } = useSession.fields('user', 'error');
  return (
    <AuthLayout titleId="mfa-required-title" title={t('mfa.required.title')} titleTestId="mfa-required">
      <p className="help">{t('mfa.required.body', { name: user?.name ?? '' })}</p>
      {error ? <ErrorNotice error={error} testId="mfa-required-error" /> : null}
      <MfaEnrolment onDone={() => void sessionStore.getState().enrolmentDone()} />
      <button type="button" className="btn btn-ghost btn-block" onClick={() => void sessionStore.getState().logout()} data-testid="logout">
        {t('topbar.logout')}
      </button>
    </AuthLayout>
  );
}
