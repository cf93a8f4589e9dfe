// Clusters: header with counts, create form (a new cluster's page opens on its first setup step), filter-as-you-type,
// the virtualised list and the details panel. The list's first page shows with the manager's count while the
// rest loads; until then the filter works on the rows loaded and says so, and the state counts wait.
import { useDeferredValue, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import type { Cluster } from '../../../../preload/api';
import { clustersStore, routerStore, useClusters, useFormat, useSession, useT } from '../../app/stores';
import { CLUSTER_STATES, makeSelectVisible, selectPartial, selectSelectedCluster, selectStateCounts, selectTotal } from './store';
import { setupTab } from '../../stores/router';
import { selectCanWrite, selectRole } from '../session/store';
import { EmptyState } from '../../components/EmptyState';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Icon } from '../../components/Icon';
import { StateBadge } from '../../components/StateBadge';
import { Trans } from '../../components/Trans';
import { ClusterDetails } from './ClusterDetails';
import { ClusterTable } from './ClusterTable';
import { CreateClusterForm } from './CreateClusterForm';
import { ScreenHeader } from '../../components/ScreenHeader';
import { Loading } from '../../components/Loading';
import { RefreshButton } from '../../components/RefreshButton';

/** The form closes and the new cluster's page opens on its first setup step; the shell puts the focus on its heading. */
export function openCreatedCluster(c: Pick<Cluster, 'id' | 'kind'>): void {
  clustersStore.getState().setCreateFormOpen(false);
  routerStore.getState().openCluster(c.id, setupTab(c.kind));
}

export function ClustersScreen(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const selectVisible = useMemo(makeSelectVisible, []);
  const { status, error, filter } = useClusters.fields('status', 'error', 'filter');
  const total = useClusters(selectTotal);
  const loaded = useClusters((s) => s.items.length);
  const partial = useClusters(selectPartial);
  const counts = useClusters(selectStateCounts);
  const rows = useClusters(selectVisible);
  const selected = useClusters(selectSelectedCluster);
  const canWrite = useSession(selectCanWrite);
  const role = useSession(selectRole);
  // Typing in the filter re-renders the list after the input; the list's first rows are not held back a render.
  const deferredRows = useDeferredValue(rows);
  const tableRows = filter ? deferredRows : rows;
  const creating = useClusters((s) => s.createFormOpen);
  const setCreating = (open: boolean): void => clustersStore.getState().setCreateFormOpen(open);
  const [announcement, setAnnouncement] = useState('');
  const newButtonRef = useRef<HTMLButtonElement>(null);
  const filterRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void clustersStore.getState().ensureLoad();
  }, []);

  useEffect(() => {
    if (!announcement) return;
    const timer = setTimeout(() => setAnnouncement(''), 5000);
    return () => clearTimeout(timer);
  }, [announcement]);

  const closeForm = (): void => {
    setCreating(false);
    requestAnimationFrame(() => newButtonRef.current?.focus());
  };

  const loadingFirst = loaded === 0 && (status === 'loading' || status === 'idle');
  // What the toolbar says of the rows: while only the first page is in, how much of the list they are.
  const shownNote = partial
    ? filter
      ? t('clusters.showingPartial', { shown: rows.length, loaded, total })
      : t('clusters.partial', { loaded, total })
    : filter
      ? t('clusters.showing', { shown: rows.length, total })
      : null;

  return (
    <section className="screen screen-clusters" aria-labelledby="screen-title">
      <ScreenHeader
        title={t('clusters.title')}
        subtitle={
          <>
            {t('clusters.subtitle')}
            <span className="sep" aria-hidden="true">
              ·
            </span>
            <span data-testid="clusters-count">{fmt.plural('clusters.count', total)}</span>
          </>
        }
        actions={
          <>
            <RefreshButton onClick={() => void clustersStore.getState().load()} />
            <button
              ref={newButtonRef}
              type="button"
              className="btn btn-primary"
              onClick={() => setCreating(!creating)}
              aria-expanded={creating}
              aria-controls="create-cluster-panel"
              disabled={!canWrite}
              data-testid="new-cluster"
            >
              <Icon name="plus" />
              {t('clusters.new')}
            </button>
          </>
        }
      />

      {!canWrite && role ? (
        <p className="readonly-note" role="note">
          {t('clusters.readOnly', { role: t(`role.${role}`) })}
        </p>
      ) : null}

      <div id="create-cluster-panel">{creating ? <CreateClusterForm onCancel={closeForm} onCreated={openCreatedCluster} /> : null}</div>

      <div className="toolbar">
        <div className="search">
          <Icon name="search" className="search-icon" />
          <label htmlFor="cluster-filter" className="visually-hidden">
            {t('clusters.filter.label')}
          </label>
          <input
            ref={filterRef}
            id="cluster-filter"
            type="search"
            autoComplete="off"
            spellCheck={false}
            placeholder={t('clusters.filter.placeholder')}
            value={filter}
            onChange={(e) => clustersStore.getState().setFilter(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && filter) {
                e.preventDefault();
                clustersStore.getState().setFilter('');
              }
            }}
            data-testid="cluster-filter"
          />
          {filter ? (
            <button
              type="button"
              className="btn btn-icon btn-sm search-clear"
              aria-label={t('clusters.filter.clear')}
              title={t('clusters.filter.clear')}
              onClick={() => {
                clustersStore.getState().setFilter('');
                filterRef.current?.focus();
              }}
            >
              <Icon name="close" />
            </button>
          ) : null}
        </div>
        <ul className="state-summary" aria-label={t('clusters.col.state')} aria-busy={partial}>
          {CLUSTER_STATES.map((s) => (
            <li key={s}>
              <StateBadge state={s} />
              {/* Counts of the first page alone would be wrong: they come with the whole list. */}
              <span className="state-count">{partial ? '…' : fmt.number(counts[s])}</span>
            </li>
          ))}
        </ul>
        <p className="toolbar-count" aria-live="polite" data-testid="clusters-shown">
          {shownNote}
        </p>
      </div>

      {error ? <ErrorNotice error={error} testId="clusters-error" /> : null}

      <div className="content-split">
        <div className="content-main">
          {loadingFirst ? (
            <Loading label={t('clusters.loading')} />
          ) : status === 'error' && total === 0 ? (
            <EmptyState
              icon="alert"
              title={t('clusters.loadFailed')}
              actions={
                <button type="button" className="btn" onClick={() => void clustersStore.getState().load()}>
                  {t('common.retry')}
                </button>
              }
            />
          ) : total === 0 ? (
            <EmptyState
              icon="clusters"
              title={t('clusters.empty.title')}
              testId="clusters-empty"
              actions={
                canWrite && !creating ? (
                  <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
                    <Icon name="plus" />
                    {t('clusters.new')}
                  </button>
                ) : null
              }
            >
              <p>
                <Trans k="clusters.empty.body" params={{ identity: <code>navin-import</code> }} />
              </p>
            </EmptyState>
          ) : rows.length === 0 && partial && status === 'loading' ? (
            // No match in the first page: the rest may hold some.
            <Loading label={t('clusters.loading')} />
          ) : rows.length === 0 ? (
            <EmptyState icon="search" title={t('clusters.noMatch.title', { filter })} testId="clusters-no-match">
              <p>{t('clusters.noMatch.body')}</p>
            </EmptyState>
          ) : (
            <ClusterTable rows={tableRows} busy={partial && status === 'loading'} />
          )}
        </div>
        {selected ? <ClusterDetails cluster={selected} onAnnounce={setAnnouncement} /> : null}
      </div>

      <div className="flash-region" role="status" aria-live="polite" data-testid="clusters-announcement">
        {announcement ? <p className="flash">{announcement}</p> : null}
      </div>
    </section>
  );
}
