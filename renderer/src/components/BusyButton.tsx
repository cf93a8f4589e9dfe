// A button that sends something: disabled and marked busy while it runs, with its words for that time.
import type { ReactElement } from 'react';
import { useT } from '../app/stores';
import type { PlainKey } from '../lib/plainKey';
import { Icon, type IconName } from './Icon';

export interface BusyButtonProps {
  busy: boolean;
  /** Its words, and its words while busy. */
  text: readonly [PlainKey, PlainKey];
  /** Disabled besides while busy (nothing to send yet). */
  disabled?: boolean;
  icon?: IconName;
  /** Submits its form (else a plain button with its onClick). */
  submit?: boolean;
  variant?: 'primary' | 'plain';
  size?: 'sm' | 'block';
  onClick?: () => unknown;
  testId?: string;
}

/** A button's words, icon and look, which a screen may declare once beside its other constants. */
export type BusyButtonLook = Pick<BusyButtonProps, 'text' | 'icon' | 'variant' | 'size' | 'testId'>;

export function BusyButton({
  busy,
  text,
  disabled,
  icon,
  submit,
  variant = 'primary',
  size,
  onClick,
  testId,
}: BusyButtonProps): ReactElement {
  const t = useT();
  const className = ['btn', variant === 'primary' ? 'btn-primary' : null, size ? `btn-${size}` : null].filter(Boolean).join(' ');
  return (
    <button
      type={submit ? 'submit' : 'button'}
      className={className}
      disabled={busy || disabled}
      aria-busy={busy || undefined}
      onClick={onClick && (() => void onClick())}
      data-testid={testId}
    >
      {icon ? <Icon name={icon} /> : null}
      {t(busy ? text[1] : text[0])}
    </button>
  );
}
