// Days left to a certificate's not-after in words ("5 days left", "expired 2 days ago"), shared by the fleet screen,
// the shell's alert and the sheet's Security tab.
import type { ReactElement } from 'react';
import { useFormat } from '../../app/stores';

export function DaysLeft({ days }: { days: number }): ReactElement {
  const fmt = useFormat();
  return (
    <span className={days < 14 ? 'days-left is-short' : 'days-left'} data-testid="days-left" data-days={days}>
      {days < 0 ? fmt.plural('certificates.daysPast', -days) : fmt.plural('certificates.daysLeft', days)}
    </span>
  );
}
