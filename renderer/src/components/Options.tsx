// The options of a select: one a value (with its words), or one an item (its value and its words).
import type { ReactElement } from 'react';

export function ItemOptions<T>({
  items,
  value,
  label,
}: {
  items: readonly T[];
  value: (item: T) => string;
  label: (item: T) => string;
}): ReactElement {
  return (
    <>
      {items.map((item) => (
        <option key={value(item)} value={value(item)}>
          {label(item)}
        </option>
      ))}
    </>
  );
}

export function Options<V extends string>({ values, label }: { values: readonly V[]; label: (value: V) => string }): ReactElement {
  return <ItemOptions items={values} value={(v) => v} label={label} />;
}
