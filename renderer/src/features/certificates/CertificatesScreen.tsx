// Certificates: every certificate the product issued, the soonest to expire first, virtualised like the other long
// lists. Those in use with under 14 days left are marked; the one the shell's alert led to is scrolled to.
import { useEffect, useMemo, useRef, type ReactElement } from 'react';
import type { FleetCertificate } from '../../../../preload/api';
import { certificatesStore, clustersStore, useCertificates, useClusters, useFormat, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { EmptyState } from '../../components/EmptyState';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { RefreshButton } from '../../components/RefreshButton';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useRowVirtualizer } from '../../components/VirtualRows';
import { VirtualList } from '../../components/VirtualList';
import { CheckOption } from '../../components/CheckOption';
import { selectExpiring, selectShown } from './store';
import { DaysLeft } from './DaysLeft';
import { CaRotationPanel } from './CaRotationPanel';

const ROW_HEIGHT = 64;

export function CertificatesScreen(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { items, status, error, expiringOnly, focused } = useCertificates.fields('items', 'status', 'error', 'expiringOnly', 'focused');
  const rows = useMemo(() => selectShown({ items, expiringOnly }), [items, expiringOnly]);
  const expiring = useMemo(() => selectExpiring({ items }).length, [items]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useRowVirtualizer(rows, scrollRef, { rowHeight: ROW_HEIGHT, overscan: 8, key: (c) => c.serial });

  useEffect(() => {
    void certificatesStore.getState().load();
    void clustersStore.getState().load();
  }, []);

  // The alert's link: scroll to its certificate once the rows hold it.
  const focusedIndex = focused ? rows.findIndex((c) => c.serial === focused) : -1;
  useEffect(() => {
    if (focusedIndex >= 0) virtualizer.scrollToIndex(focusedIndex, { align: 'start' });
  }, [focusedIndex, virtualizer]);

  return (
    <section className="screen" aria-labelledby="screen-title" data-testid="screen-certificates">
      <ScreenHeader
        title={t('nav.certificates')}
        subtitle={t('certificates.subtitle')}
        actions={<RefreshButton onClick={() => void certificatesStore.getState().load()} />}
      />
      <CaRotationPanel />
      {error ? <ErrorNotice error={error} testId="certificates-error" /> : null}
      <div className="certificates-toolbar">
        <span className="muted" data-testid="certificates-count">
          {fmt.plural('certificates.count', items.length)}
        </span>
        <CheckOption
          className="check-inline"
          checked={expiringOnly}
          onChange={(on) => certificatesStore.getState().setExpiringOnly(on)}
          testId="certificates-expiring-only"
        >
          {t('certificates.expiringOnly')}
        </CheckOption>
        {status === 'ready' && expiring === 0 && items.length > 0 ? (
          <span className="muted" data-testid="certificates-none-expiring">
            {t('certificates.noneExpiring')}
          </span>
        ) : null}
      </div>
      {status === 'loading' ? <Loading testId="certificates-loading" /> : null}
      {status === 'ready' && items.length === 0 ? (
        <EmptyState icon="shield" title={t('certificates.empty.title')} testId="certificates-empty">
          <p>{t('certificates.empty.body')}</p>
        </EmptyState>
      ) : (
        <VirtualList
          rows={rows}
          virtualizer={virtualizer}
          scrollRef={scrollRef}
          rowHeight={ROW_HEIGHT}
          className="certificates-list"
          label={t('certificates.listLabel')}
          testId="certificates-list"
          renderRow={(c) => <CertificateRow certificate={c} focused={c.serial === focused} />}
        />
      )}
    </section>
  );
}

function CertificateRow({ certificate: c, focused }: { certificate: FleetCertificate; focused: boolean }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const cluster = useClusters((s) => (c.cluster_id ? (s.items.find((x) => x.id === c.cluster_id)?.name ?? c.cluster_id) : null));
  const where = [cluster ? t('certificates.cluster', { cluster }) : null, c.service].filter(Boolean).join(' · ');
  return (
    <div
      className={['certificate-row', c.expiring ? 'is-expiring' : '', focused ? 'is-focused' : ''].filter(Boolean).join(' ')}
      data-testid="certificate-row"
      data-serial={c.serial}
      data-kind={c.kind}
      data-expiring={String(c.expiring)}
      data-focused={focused ? 'true' : undefined}
      aria-current={focused ? 'true' : undefined}
    >
      <div className="certificate-main">
        <span className="certificate-kind">{t(`certificates.kind.${c.kind}`)}</span>
        <strong className="certificate-subject truncate" title={c.subject}>
          {c.subject}
        </strong>
        <span className="muted truncate">
          {where}
          {where && c.sans ? ' · ' : ''}
          {c.sans ? t('certificates.sans', { names: c.sans.join(', ') }) : null}
        </span>
      </div>
      <div className="certificate-issuer muted">
        <span>
          {c.issuer.ca === 'manager'
            ? t('certificates.issuer.manager')
            : t('certificates.issuer.service', { serial: c.issuer.serial ?? '' })}
        </span>
        <code className="truncate" title={c.serial}>
          {t('certificates.serial', { serial: c.serial })}
        </code>
      </div>
      <div className="certificate-expiry">
        <time dateTime={c.not_after} title={`${t('certificates.notAfter')} ${fmt.dateTimeLong(c.not_after)}`}>
          {fmt.dateTime(c.not_after)}
        </time>
        <DaysLeft days={c.days_left} />
      </div>
      <div className="certificate-state">
        <Tone tone={c.state === 'issued' ? 'ok' : c.state === 'expired' || c.state === 'revoked' ? 'bad' : 'neutral'}>
          {t(`certificates.state.${c.state}`)}
        </Tone>
        {c.expiring ? (
          <Tone tone="bad" testId="certificate-expiring">
            {t('certificates.expiringBadge')}
          </Tone>
        ) : null}
      </div>
    </div>
  );
}
