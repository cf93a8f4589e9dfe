// The audit log: the verdict of its hash chain first (all rows intact, or the first broken row and why), then
// a search by actor, cluster and action over a virtualised list, newest first, loaded page by page.
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { auditStore, clustersStore, useAudit, useFormat, useT } from '../../app/stores';
import type { AuditRow } from '../../api/types';
import { EMPTY_AUDIT_FILTER, KNOWN_AUDIT_ACTIONS, isFiltered, type AuditFilter } from './store';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Icon } from '../../components/Icon';
import { ClusterSelect, useClusterNames } from '../../components/ClusterFilters';
import { ScreenHeader } from '../../components/ScreenHeader';
import { ListView } from '../../components/ListView';
import { RowLink, VirtualRow, useRowVirtualizer } from '../../components/VirtualRows';
import { RefreshButton } from '../../components/RefreshButton';
import { CodeTerm } from '../../components/Term';

export const AUDIT_ROW_HEIGHT = 36;

const AUDIT_COLUMNS = ['seq', 'at', 'actor', 'action', 'cluster', 'target'] as const;

export function AuditScreen(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { status, error, items, filter } = useAudit.fields('status', 'error', 'items', 'filter');
  const [draft, setDraft] = useState<AuditFilter>(filter);

  useEffect(() => {
    void auditStore.getState().verify();
    void auditStore.getState().load();
    if (clustersStore.getState().status === 'idle') void clustersStore.getState().load();
  }, []);

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    void auditStore.getState().search(draft);
  };

  return (
    <section className="screen screen-audit" aria-labelledby="screen-title" data-testid="screen-audit">
      <ScreenHeader
        title={t('nav.audit')}
        subtitle={t('audit.subtitle')}
        actions={
          <>
            <RefreshButton
              onClick={() => {
                void auditStore.getState().verify();
                void auditStore.getState().load();
              }}
            />
          </>
        }
      />

      <ChainVerdict />

      <form className="toolbar audit-search" onSubmit={onSubmit} role="search" aria-label={t('audit.search')}>
        <div className="field field-inline">
          <label htmlFor="audit-actor">{t('audit.actor')}</label>
          <input
            id="audit-actor"
            value={draft.actor}
            onChange={(e) => setDraft({ ...draft, actor: e.target.value })}
            autoComplete="off"
            spellCheck={false}
            data-testid="audit-actor"
          />
        </div>
        <ClusterSelect
          id="audit-cluster"
          label={t('audit.cluster')}
          value={draft.cluster_id}
          onChange={(id) => setDraft({ ...draft, cluster_id: id })}
          testId="audit-cluster"
        />
        <div className="field field-inline">
          <label htmlFor="audit-action">{t('audit.action')}</label>
          <input
            id="audit-action"
            className="mono input-wide"
            list="audit-actions"
            value={draft.action}
            onChange={(e) => setDraft({ ...draft, action: e.target.value })}
            autoComplete="off"
            spellCheck={false}
            data-testid="audit-action"
          />
          <datalist id="audit-actions">
            {KNOWN_AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
        </div>
        <button type="submit" className="btn btn-primary" data-testid="audit-search">
          <Icon name="search" />
          {t('audit.searchButton')}
        </button>
        {isFiltered(filter) ? (
          <button
            type="button"
            className="btn"
            onClick={() => {
              setDraft(EMPTY_AUDIT_FILTER);
              void auditStore.getState().search(EMPTY_AUDIT_FILTER);
            }}
          >
            {t('audit.clear')}
          </button>
        ) : null}
        <p className="toolbar-count" aria-live="polite" data-testid="audit-count">
          {status === 'ready' ? fmt.plural('audit.shown', items.length) : null}
        </p>
      </form>
      <p className="help">{t('audit.exactHelp')}</p>

      {error ? <ErrorNotice error={error} testId="audit-error" /> : null}
      <ListView
        status={status}
        count={items.length}
        empty={{ icon: 'audit', title: isFiltered(filter) ? 'audit.noMatch' : 'audit.empty', testId: 'audit-empty' }}
      >
        <AuditTable rows={items} />
      </ListView>
    </section>
  );
}

function ChainVerdict(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { verdict, verifyStatus: status, verifyError: error } = useAudit.fields('verdict', 'verifyStatus', 'verifyError');
  if (error) return <ErrorNotice error={error} testId="chain-error" />;
  if (!verdict) {
    return (
      <div className="chain chain-pending" role="status" data-testid="chain-verdict" data-ok="pending">
        <span className="spinner" aria-hidden="true" />
        {t('audit.chain.checking')}
      </div>
    );
  }
  return verdict.ok ? (
    <div className="chain chain-ok" role="status" data-testid="chain-verdict" data-ok="true">
      <Icon name="shield" className="chain-icon" />
      <div>
        <p className="chain-title">{t('audit.chain.ok', { rows: fmt.number(verdict.rows) })}</p>
        <p className="chain-body">{t('audit.chain.okBody')}</p>
      </div>
      {status === 'loading' ? <span className="spinner" aria-hidden="true" /> : null}
    </div>
  ) : (
    <div className="chain chain-broken" role="alert" data-testid="chain-verdict" data-ok="false">
      <Icon name="alert" className="chain-icon" />
      <div>
        <p className="chain-title">{t('audit.chain.broken', { seq: verdict.first_broken_seq })}</p>
        <p className="chain-body">{t('audit.chain.brokenBody', { reason: verdict.reason, rows: fmt.number(verdict.rows) })}</p>
      </div>
    </div>
  );
}

function AuditTable({ rows }: { rows: readonly AuditRow[] }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const nameOf = useClusterNames();
  const { hasMore, loadingMore } = useAudit.fields('hasMore', 'loadingMore');
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const [openSeq, setOpenSeq] = useState<number | null>(null);
  const virtualizer = useRowVirtualizer(rows, scrollRef, { rowHeight: AUDIT_ROW_HEIGHT, overscan: 12, key: (r) => r.seq });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];

  // Near the end of what is loaded: the next page.
  useEffect(() => {
    if (last && last.index >= rows.length - 20 && hasMore && !loadingMore) void auditStore.getState().loadMore();
  }, [last, rows.length, hasMore, loadingMore]);

  const focusRow = (i: number): void => {
    const next = Math.max(0, Math.min(rows.length - 1, i));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
    requestAnimationFrame(() =>
      scrollRef.current?.querySelector<HTMLElement>(`[data-row-index="${next}"] .row-link`)?.focus({ preventScroll: true }),
    );
  };

  const activeIndex = Math.min(active, Math.max(0, rows.length - 1));
  const open = openSeq !== null ? (rows.find((r) => r.seq === openSeq) ?? null) : null;

  return (
    <div className="content-split">
      <div
        className="table audit-table"
        role="table"
        aria-label={t('audit.tableLabel')}
        aria-rowcount={rows.length + 1}
        data-testid="audit-table"
      >
        <div role="rowgroup" className="thead">
          <div role="row" className="tr audit-tr">
            {AUDIT_COLUMNS.map((c) => (
              <div key={c} role="columnheader" className="th">
                {t(`audit.col.${c}`)}
              </div>
            ))}
          </div>
        </div>
        <div
          ref={scrollRef}
          role="rowgroup"
          className="tbody"
          data-testid="audit-scroll"
          onKeyDown={(e) => {
            if (!(e.target as HTMLElement).classList.contains('row-link')) return;
            const moves: Record<string, number> = {
              ArrowDown: activeIndex + 1,
              ArrowUp: activeIndex - 1,
              Home: 0,
              End: rows.length - 1,
              PageDown: activeIndex + 10,
              PageUp: activeIndex - 10,
            };
            const to = moves[e.key];
            if (to === undefined) return;
            e.preventDefault();
            focusRow(to);
          }}
        >
          <div className="tbody-inner" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((v) => {
              const r = rows[v.index];
              if (!r) return null;
              const toggle = (): void => setOpenSeq(openSeq === r.seq ? null : r.seq);
              return (
                <VirtualRow
                  key={v.key}
                  item={v}
                  classes={['audit-tr']}
                  selected={openSeq === r.seq}
                  data-testid="audit-row"
                  data-action={r.action}
                  onClick={() => {
                    setActive(v.index);
                    toggle();
                  }}
                >
                  <div role="cell" className="td mono">
                    <RowLink index={v.index} activeIndex={activeIndex} pressed={openSeq === r.seq} onActive={setActive} onToggle={toggle}>
                      #{r.seq}
                    </RowLink>
                  </div>
                  <div role="cell" className="td col-created">
                    <time dateTime={r.at} title={fmt.dateTimeLong(r.at)}>
                      {fmt.dateTime(r.at)}
                    </time>
                  </div>
                  <div role="cell" className="td">
                    <span className="truncate">{r.actor}</span>
                  </div>
                  <div role="cell" className="td">
                    <code className="truncate">{r.action}</code>
                  </div>
                  <div role="cell" className="td">
                    <span className="truncate">{r.cluster_id ? (nameOf(r.cluster_id) ?? r.cluster_id) : '–'}</span>
                  </div>
                  <div role="cell" className="td">
                    <span className="truncate mono" title={r.target ?? undefined}>
                      {r.target ?? '–'}
                    </span>
                  </div>
                </VirtualRow>
              );
            })}
          </div>
        </div>
        {loadingMore ? (
          <p className="table-foot" role="status">
            {t('audit.loadingMore')}
          </p>
        ) : null}
      </div>
      {open ? (
        <aside className="details" aria-labelledby="audit-details-title" data-testid="audit-details">
          <header className="details-header">
            <h2 id="audit-details-title" className="details-title">
              {t('audit.details.title', { seq: open.seq })}
            </h2>
            <button
              type="button"
              className="btn btn-icon"
              onClick={() => setOpenSeq(null)}
              aria-label={t('common.close')}
              title={t('common.close')}
            >
              <Icon name="close" />
            </button>
          </header>
          <dl className="details-list">
            <dt>{t('audit.col.at')}</dt>
            <dd>{fmt.dateTimeLong(open.at)}</dd>
            <dt>{t('audit.col.actor')}</dt>
            <dd>{open.actor}</dd>
            <CodeTerm name={t('audit.col.action')} value={open.action} />
            <dt>{t('audit.col.cluster')}</dt>
            <dd>{open.cluster_id ? <code className="selectable">{nameOf(open.cluster_id) ?? open.cluster_id}</code> : '–'}</dd>
            <dt>{t('audit.col.target')}</dt>
            <dd>{open.target ? <code className="selectable">{open.target}</code> : '–'}</dd>
            <dt>{t('audit.details.details')}</dt>
            <dd>
              <pre className="json-inline">{JSON.stringify(open.details, null, 2)}</pre>
            </dd>
            <CodeTerm name={t('audit.details.hash')} value={open.hash} className="selectable hash" />
            <CodeTerm name={t('audit.details.prev')} value={open.prev_hash} className="selectable hash" />
          </dl>
        </aside>
      ) : null}
    </div>
  );
}
