// The command an action just sent, followed live (its state and receipts arrive with `command.changed`).
import type { ReactElement } from 'react';
import type { CommandView } from '../../api/types';
import { useClusterCommands, useT } from '../../app/stores';
import { FINAL_STATES } from './store';
import { CommandStateBadge } from '../../components/Badges';
import { CodeText, ReceiptList } from './CommandParts';

export function CommandTracker({
  commandId,
  initial,
  title,
  testId,
}: {
  commandId: string;
  initial: CommandView;
  title: string;
  testId: string;
}): ReactElement {
  const t = useT();
  const live = useClusterCommands((s) => s.items.find((c) => c.id === commandId) ?? null);
  const command = live ?? initial;
  const final = FINAL_STATES.includes(command.state);
  return (
    <section
      className={`panel tracker tracker-${command.state}`}
      aria-labelledby={`${testId}-title`}
      data-testid={testId}
      data-state={command.state}
      aria-live="polite"
    >
      <div className="panel-head">
        <h3 id={`${testId}-title`} className="panel-title">
          {title}
        </h3>
        <CommandStateBadge state={command.state} />
      </div>
      <p className="help">
        {final
          ? t(`command.final.${command.state as 'succeeded' | 'failed' | 'rejected'}`)
          : t(`command.waiting.${command.state === 'delivered' ? 'delivered' : 'queued'}`)}
      </p>
      {command.code ? <CodeText code={command.code} /> : null}
      <ReceiptList receipts={command.receipts ?? []} />
    </section>
  );
}
