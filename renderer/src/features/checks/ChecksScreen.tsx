// Checks: the latest preflight run of each cluster, a Run button per cluster and a link to its Profile tab.
// The list is virtualised and a row reads its cluster's run when it is shown.
import { useEffect, useRef, type ReactElement } from 'react';
import type { Cluster } from '../../../../preload/api';
import { checksStore, clustersStore, routerStore, useChecks, useClusters, useFormat, useSession, useT } from '../../app/stores';
import { ListView, type EmptyList } from '../../components/ListView';
import { ErrorNotice } from '../../components/ErrorNotice';
import { clusterHash } from '../../stores/router';
import { selectCanWrite } from '../session/store';
import { OutcomeBadge } from '../profile/PreflightPanel';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useRowVirtualizer } from '../../components/VirtualRows';
import { VirtualList } from '../../components/VirtualList';

const ROW_HEIGHT = 44;

const CHECKS_EMPTY: EmptyList = { icon: 'checks', title: 'checks.empty.title', body: 'checks.empty.body', testId: 'checks-empty' };

export function ChecksScreen(): ReactElement {
  const t = useT();
  const { items: clusters, status, error } = useClusters.fields('items', 'status', 'error');
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useRowVirtualizer(clusters, scrollRef, { rowHeight: ROW_HEIGHT, overscan: 8, key: (c) => c.id });

  useEffect(() => {
    void clustersStore.getState().load();
  }, []);

  return (
    <section className="screen" aria-labelledby="screen-title" data-testid="screen-checks">
      <ScreenHeader title={t('nav.checks')} subtitle={t('checks.subtitle')} />
      {error ? <ErrorNotice error={error} testId="checks-error" /> : null}
      <ListView status={status} count={clusters.length} empty={CHECKS_EMPTY}>
        <VirtualList
          rows={clusters}
          virtualizer={virtualizer}
          scrollRef={scrollRef}
          rowHeight={ROW_HEIGHT}
          label={t('checks.listLabel')}
          testId="checks-list"
          renderRow={(c) => <ClusterChecksRow cluster={c} />}
        />
      </ListView>
    </section>
  );
}

function ClusterChecksRow({ cluster }: { cluster: Cluster }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const entry = useChecks((s) => s.runs[cluster.id]);
  const canWrite = useSession(selectCanWrite);

  useEffect(() => {
    void checksStore.getState().ensure(cluster.id);
  }, [cluster.id]);

  const run = entry?.run ?? null;
  const failed = run ? run.checks.filter((c) => c.status === 'fail').length : 0;
  const warned = run ? run.checks.filter((c) => c.status === 'warn').length : 0;
  return (
    <div className="checks-row profile-head" data-testid="checks-row" data-cluster-id={cluster.id}>
      <a
        href={clusterHash(cluster.id, 'profile')}
        onClick={(e) => {
          e.preventDefault();
          routerStore.getState().openCluster(cluster.id, 'profile');
        }}
      >
        <strong>{cluster.name}</strong>
      </a>
      {run ? (
        <>
          <OutcomeBadge outcome={run.outcome} />
          <span className="muted">
            {t('checks.summary', { failed, warned, total: run.checks.length, when: fmt.dateTime(run.finished_at) })}
          </span>
        </>
      ) : entry?.status === 'missing' ? (
        <span className="muted">{t('preflight.none')}</span>
      ) : entry?.status === 'error' && entry.error ? (
        <span className="field-error" data-error-code={entry.error.code}>
          {t('checks.loadFailed', { code: entry.error.code })}
        </span>
      ) : (
        <span className="muted">{t('app.loading')}</span>
      )}
      {entry?.error && entry.status !== 'error' ? (
        <span className="field-error">{t('checks.loadFailed', { code: entry.error.code })}</span>
      ) : null}
      {canWrite ? (
        <button
          type="button"
          className="btn btn-sm"
          disabled={entry?.running}
          onClick={() => void checksStore.getState().run(cluster.id)}
          data-testid="checks-run"
        >
          {entry?.running ? t('preflight.running') : t('preflight.run')}
        </button>
      ) : null}
    </div>
  );
}
