// The keydown handler of a form or panel that Escape closes: the key's default is prevented, so it closes that
// one thing only.
import type { KeyboardEvent } from 'react';

export const onEscape =
  (close: () => void) =>
  (e: KeyboardEvent): void => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    close();
  };
