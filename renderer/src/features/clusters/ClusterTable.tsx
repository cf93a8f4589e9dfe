// The cluster list, virtualised: only the visible rows (plus overscan) are in the DOM, so thousands of
// clusters scroll and filter smoothly. Keyboard: Tab reaches the current row's name, arrows / Home / End /
// PageUp / PageDown move between rows, Enter opens the details.
import { memo, useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { Cluster } from '../../../../preload/api';
import { clustersStore, useClusters, useFormat, useT } from '../../app/stores';
import type { ClusterSortKey } from './store';
import { Icon } from '../../components/Icon';
import { StateBadge } from '../../components/StateBadge';
import { RowLink, VirtualRow, useRowVirtualizer } from '../../components/VirtualRows';

export const ROW_HEIGHT = 36;

interface Column {
  key: 'name' | 'state' | 'tenant' | 'created';
  sort: ClusterSortKey | null;
  label: 'clusters.col.name' | 'clusters.col.state' | 'clusters.col.tenant' | 'clusters.col.created';
}

const COLUMNS: readonly Column[] = [
  { key: 'name', sort: 'name', label: 'clusters.col.name' },
  { key: 'state', sort: 'state', label: 'clusters.col.state' },
  { key: 'tenant', sort: null, label: 'clusters.col.tenant' },
  { key: 'created', sort: 'created', label: 'clusters.col.created' },
];

/** `busy`: the rows are a first page and the rest of the list is loading. */
// Memoised: the screen's deferred render (useDeferredValue of its rows) leaves a table whose rows did not change.
export const ClusterTable = memo(function ClusterTable({ rows, busy = false }: { rows: readonly Cluster[]; busy?: boolean }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { sort, selectedId } = useClusters.fields('sort', 'selectedId');
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const pendingFocus = useRef<number | null>(null);

  const virtualizer = useRowVirtualizer(rows, scrollRef, { rowHeight: ROW_HEIGHT, overscan: 10, key: (c) => c.id });

  const activeIndex = rows.length === 0 ? 0 : Math.min(active, rows.length - 1);

  // After a keyboard move, focus the row once it is rendered.
  useEffect(() => {
    const i = pendingFocus.current;
    if (i === null) return;
    const el = scrollRef.current?.querySelector<HTMLButtonElement>(`[data-row-index="${i}"] .row-link`);
    if (el) {
      pendingFocus.current = null;
      el.focus({ preventScroll: true });
    }
  });

  const moveTo = (i: number): void => {
    if (rows.length === 0) return;
    const next = Math.max(0, Math.min(rows.length - 1, i));
    setActive(next);
    pendingFocus.current = next;
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const pageSize = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const target = e.target as HTMLElement;
    if (!target.classList.contains('row-link')) return;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(activeIndex + 1),
      ArrowUp: () => moveTo(activeIndex - 1),
      Home: () => moveTo(0),
      End: () => moveTo(rows.length - 1),
      PageDown: () => moveTo(activeIndex + pageSize),
      PageUp: () => moveTo(activeIndex - pageSize),
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };

  const ariaSort = (col: Column): 'ascending' | 'descending' | 'none' | undefined =>
    col.sort === null ? undefined : sort.key === col.sort ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none';

  return (
    <div
      className="table"
      role="table"
      aria-label={t('clusters.table.label')}
      aria-rowcount={rows.length + 1}
      aria-busy={busy}
      data-testid="clusters-table"
    >
      <div role="rowgroup" className="thead">
        <div role="row" aria-rowindex={1} className="tr">
          {COLUMNS.map((col) => (
            <div key={col.key} role="columnheader" aria-sort={ariaSort(col)} className={`th col-${col.key}`}>
              {col.sort ? (
                <button
                  type="button"
                  className={sort.key === col.sort ? 'th-button is-sorted' : 'th-button'}
                  onClick={() => clustersStore.getState().toggleSort(col.sort as ClusterSortKey)}
                  title={t('clusters.sortBy', { column: t(col.label) })}
                  data-testid={`sort-${col.sort}`}
                >
                  <span>{t(col.label)}</span>
                  <Icon name={sort.key === col.sort ? (sort.dir === 'asc' ? 'sortAsc' : 'sortDesc') : 'sort'} className="th-sort-icon" />
                </button>
              ) : (
                <span className="th-label">{t(col.label)}</span>
              )}
            </div>
          ))}
        </div>
      </div>
      <div ref={scrollRef} role="rowgroup" className="tbody" onKeyDown={onKeyDown} data-testid="clusters-scroll">
        <div className="tbody-inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const c = rows[v.index];
            if (!c) return null;
            const selected = c.id === selectedId;
            const toggle = (): void => clustersStore.getState().select(selected ? null : c.id);
            return (
              <VirtualRow
                key={v.key}
                item={v}
                selected={selected}
                data-testid="cluster-row"
                data-cluster-name={c.name}
                onClick={() => {
                  setActive(v.index);
                  toggle();
                }}
              >
                <div role="cell" className="td col-name">
                  <RowLink index={v.index} activeIndex={activeIndex} pressed={selected} onActive={setActive} onToggle={toggle}>
                    <span className="cluster-name">{c.name}</span>
                  </RowLink>
                  {c.description ? (
                    <span className="cluster-desc" title={c.description}>
                      {c.description}
                    </span>
                  ) : null}
                </div>
                <div role="cell" className="td col-state">
                  <StateBadge state={c.state} />
                </div>
                <div role="cell" className="td col-tenant">
                  <span className="truncate">{c.tenant}</span>
                </div>
                <div role="cell" className="td col-created">
                  <time dateTime={c.created_at} title={fmt.dateTimeLong(c.created_at)}>
                    {fmt.dateTime(c.created_at)}
                  </time>
                </div>
              </VirtualRow>
            );
          })}
        </div>
      </div>
    </div>
  );
});
