// A virtualised list of fixed-height rows in its own scrolling box (checks, certificates): only the rows in view are
// in the DOM, each a listitem placed at its offset. The caller keeps the virtualizer, to scroll to a row.
import type { ReactElement, RefObject } from 'react';
import type { useRowVirtualizer } from './VirtualRows';

export function VirtualList<T>({
  rows,
  virtualizer,
  scrollRef,
  rowHeight,
  className,
  label,
  testId,
  renderRow,
}: {
  rows: readonly T[];
  virtualizer: ReturnType<typeof useRowVirtualizer<T>>;
  scrollRef: RefObject<HTMLDivElement | null>;
  rowHeight: number;
  /** Classes besides virtual-list. */
  className?: string;
  label: string;
  testId: string;
  renderRow: (row: T) => ReactElement;
}): ReactElement {
  return (
    <div
      className={className ? `virtual-list ${className}` : 'virtual-list'}
      ref={scrollRef}
      style={{ maxHeight: '70vh', overflow: 'auto' }}
      role="list"
      aria-label={label}
      data-testid={testId}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          return row === undefined ? null : (
            <div
              key={item.key}
              role="listitem"
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)`, height: rowHeight }}
            >
              {renderRow(row)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
