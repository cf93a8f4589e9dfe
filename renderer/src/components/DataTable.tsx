// The console's data table: a grid with its caption and column headers; the rows are the caller's, so each
// keeps its own cells, test ids and actions. Lists of thousands use the virtualised tables instead.
import type { HTMLAttributes, ReactElement, ReactNode } from 'react';

export interface Column {
  header: ReactNode;
  /** A header only assistive technology reads (an actions column). */
  hidden?: boolean;
  className?: string;
}

export interface DataTableProps {
  /** Read by assistive technology only. */
  caption?: ReactNode;
  captionId?: string;
  /** A header text, or a Column; null or false leaves a column out. */
  columns: readonly (Column | ReactNode)[];
  className?: string;
  testId?: string;
  /** The `.table-wrap` around it (which scrolls a wide table sideways), with its attributes; false: none. */
  wrap?: false | HTMLAttributes<HTMLDivElement>;
  children: ReactNode;
}

const isColumn = (c: Column | ReactNode): c is Column => typeof c === 'object' && c !== null && 'header' in c;

export function DataTable({ caption, captionId, columns, className, testId, wrap = {}, children }: DataTableProps): ReactElement {
  const table = (
    <table className={className ? `grid ${className}` : 'grid'} data-testid={testId}>
      {caption === undefined ? null : (
        <caption id={captionId} className="visually-hidden">
          {caption}
        </caption>
      )}
      <thead>
        <tr>
          {columns.map((c, i) => {
            if (c === null || c === false || c === undefined) return null;
            const col: Column = isColumn(c) ? c : { header: c };
            return (
              <th key={i} scope="col" className={col.className}>
                {col.hidden ? <span className="visually-hidden">{col.header}</span> : col.header}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return wrap === false ? (
    table
  ) : (
    <div className="table-wrap" {...wrap}>
      {table}
    </div>
  );
}
