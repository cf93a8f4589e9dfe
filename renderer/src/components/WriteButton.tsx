// A button that sends a write, shown only to those who may write: a viewer sees the same screen without it.
import type { ReactElement } from 'react';
import { useSession } from '../app/stores';
import { selectCanWrite } from '../features/session/store';
import { BusyButton, type BusyButtonProps } from './BusyButton';

export function WriteButton(props: BusyButtonProps): ReactElement | null {
  const canWrite = useSession(selectCanWrite);
  return canWrite ? <BusyButton {...props} /> : null;
}
