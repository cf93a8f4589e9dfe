// A message whose {placeholders} are React nodes (e.g. a command in <code>).
import { Fragment, type ReactElement, type ReactNode } from 'react';
import type { MessageKey, ParamsOf } from '../i18n';
import { dictionaries } from '../i18n';
import { useLocale } from '../app/stores';

export function Trans<K extends MessageKey>({ k, params }: { k: K; params: Record<ParamsOf<K>, ReactNode> }): ReactElement {
  const locale = useLocale();
  const message = dictionaries[locale][k];
  const parts = message.split(/\{([a-zA-Z0-9_]+)\}/g);
  const values = params as Record<string, ReactNode>;
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>{i % 2 === 1 ? (values[part] ?? `{${part}}`) : part}</Fragment>
      ))}
    </>
  );
}
