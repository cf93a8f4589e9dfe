// A term of a description list (`<dl>`): its name and its value, side by side (the `<dt>` and `<dd>` pair).
import type { ReactElement, ReactNode } from 'react';

export function Term({ name, children, testId }: { name: ReactNode; children: ReactNode; testId?: string }): ReactElement {
  return (
    <>
      <dt>{name}</dt>
      <dd data-testid={testId}>{children}</dd>
    </>
  );
}

/** A term whose value is code: an identifier, a version, a hash. */
export function CodeTerm({
  name,
  value,
  className,
  testId,
}: {
  name: ReactNode;
  value: ReactNode;
  className?: string;
  testId?: string;
}): ReactElement {
  return (
    <Term name={name}>
      <code className={className} data-testid={testId}>
        {value}
      </code>
    </Term>
  );
}
