// The shell's alert: a banner over every screen while a certificate in use has under 14 days left, naming the
// soonest and linking to it on the Certificates screen. The list is read when the shell opens and every few minutes.
import { useEffect, useMemo, type ReactElement } from 'react';
import { certificatesStore, routerStore, useCertificates, useFormat, useT } from '../../app/stores';
import { Icon } from '../../components/Icon';
import { hashOf } from '../../stores/router';
import { selectExpiring } from './store';

/** How often the shell reads the list again: expiry moves by days, so minutes are plenty. */
const REFRESH_MS = 5 * 60_000;

export function useCertificatesWatch(): void {
  useEffect(() => {
    const load = (): void => void certificatesStore.getState().load();
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
}

export function CertificatesAlert(): ReactElement | null {
  const t = useT();
  const fmt = useFormat();
  const items = useCertificates((s) => s.items);
  const expiring = useMemo(() => selectExpiring({ items }), [items]);
  const first = expiring[0];
  if (!first) return null;
  const days =
    first.days_left < 0 ? fmt.plural('certificates.daysPast', -first.days_left) : fmt.plural('certificates.daysLeft', first.days_left);
  const open = (serial: string | null): void => {
    certificatesStore.getState().focus(serial);
    routerStore.getState().navigate('certificates');
  };
  return (
    <div className="notice notice-warning certificates-alert" role="status" data-testid="certificates-alert" data-count={expiring.length}>
      <Icon name="shield" />
      <span>
        {fmt.plural('certificates.alert', expiring.length)}{' '}
        <a
          href={hashOf('certificates')}
          onClick={(e) => {
            e.preventDefault();
            open(first.serial);
          }}
          data-testid="certificates-alert-first"
          data-serial={first.serial}
        >
          {t('certificates.alert.first', { subject: first.subject, days })}
        </a>
      </span>
      {expiring.length > 1 ? (
        <a
          href={hashOf('certificates')}
          onClick={(e) => {
            e.preventDefault();
            open(null);
          }}
        >
          {t('certificates.alert.open')}
        </a>
      ) : null}
    </div>
  );
}
