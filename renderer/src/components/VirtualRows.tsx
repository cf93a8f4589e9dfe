// What the virtualised lists share (clusters, audit, checks): only the rows in view (plus `overscan`) are in the
// DOM, each placed at its offset; in a grid, a row's link makes it the active one (the one Tab reaches).
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import type { HTMLAttributes, ReactElement, ReactNode, RefObject } from 'react';

export function useRowVirtualizer<T>(
  rows: readonly T[],
  scrollRef: RefObject<HTMLDivElement | null>,
  options: { rowHeight: number; overscan: number; key: (row: T) => string | number },
) {
  return useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => options.rowHeight,
    overscan: options.overscan,
    getItemKey: (i) => {
      const row = rows[i];
      return row === undefined ? i : options.key(row);
    },
  });
}

type DataAttributes = { [data: `data-${string}`]: string | number | undefined };

/** A row of a virtualised grid (the header is row 1) at its offset: its classes, odd stripe and selection. */
export function VirtualRow({
  item,
  classes = [],
  selected = false,
  children,
  ...attributes
}: { item: VirtualItem; classes?: readonly string[]; selected?: boolean; children: ReactNode } & HTMLAttributes<HTMLDivElement> &
  DataAttributes): ReactElement {
  const className = ['tr', ...classes, 'row', item.index % 2 === 1 ? 'is-odd' : '', selected ? 'is-selected' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div
      role="row"
      aria-rowindex={item.index + 2}
      className={className}
      style={{ transform: `translateY(${item.start}px)` }}
      data-row-index={item.index}
      {...attributes}
    >
      {children}
    </div>
  );
}

/** The link of a row: Tab reaches the active row's only; focusing it makes its row active, a click toggles it. */
export function RowLink({
  index,
  activeIndex,
  pressed,
  onActive,
  onToggle,
  children,
}: {
  index: number;
  activeIndex: number;
  pressed: boolean;
  onActive: (index: number) => void;
  onToggle: () => void;
  children: ReactNode;
}): ReactElement {
  return (
    <button
      type="button"
      className="row-link"
      tabIndex={index === activeIndex ? 0 : -1}
      aria-pressed={pressed}
      onFocus={() => onActive(index)}
      onClick={(e) => {
        e.stopPropagation();
        onActive(index);
        onToggle();
      }}
    >
      {children}
    </button>
  );
}
