// A ref whose element takes the focus when the component appears (the first field of a form or a dialog).
import { useEffect, useRef, type RefObject } from 'react';

export function useAutoFocus<E extends HTMLElement>(): RefObject<E | null> {
  const ref = useRef<E>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}
