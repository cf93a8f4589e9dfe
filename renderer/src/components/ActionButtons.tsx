// The buttons that act on one item of a list (a component, a service): each with its icon and its words, named
// with the item for assistive technology, found by tests as `<testIdPrefix>-<action>`.
import type { ReactElement } from 'react';
import { Icon, type IconName } from './Icon';

export function ActionButtons<A extends string>({
  actions,
  icons,
  words,
  label,
  testIdPrefix,
  danger = [],
  disabled,
  onPick,
}: {
  actions: readonly A[];
  icons: Record<A, IconName>;
  /** An action in words. */
  words: (action: A) => string;
  /** What a button does, naming the item (`words` is the action's words). */
  label: (words: string) => string;
  testIdPrefix: string;
  /** The actions that destroy something, marked as such. */
  danger?: readonly A[];
  disabled?: boolean;
  onPick: (action: A) => void;
}): ReactElement {
  return (
    <>
      {actions.map((action) => (
        <button
          key={action}
          type="button"
          className={danger.includes(action) ? 'btn btn-sm btn-danger-ghost' : 'btn btn-sm'}
          disabled={disabled}
          onClick={() => onPick(action)}
          aria-label={label(words(action))}
          data-testid={`${testIdPrefix}-${action}`}
        >
          <Icon name={icons[action]} />
          {words(action)}
        </button>
      ))}
    </>
  );
}
