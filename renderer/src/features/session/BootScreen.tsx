import type { ReactElement } from 'react';
import { useSession, useT } from '../../app/stores';
import { Brand } from '../../components/Brand';

export function BootScreen(): ReactElement {
  const t = useT();
  const pending = useSession((s) => s.pending);
  return (
    <div className="auth">
      <div className="boot" role="status" aria-live="polite" data-testid="boot">
        <Brand />
        <span className="spinner" aria-hidden="true" />
        <p>{pending ? t('app.signingInWithTicket') : t('app.connecting')}</p>
      </div>
    </div>
  );
}
