// The options of a select, one a value, each with its words.
import type { ReactElement } from 'react';

export function Options<V extends string>({ values, label }: { values: readonly V[]; label: (value: V) => string }): ReactElement {
  return (
    <>
      {values.map((v) => (
        <option key={v} value={v}>
          {label(v)}
        </option>
      ))}
    </>
  );
}
