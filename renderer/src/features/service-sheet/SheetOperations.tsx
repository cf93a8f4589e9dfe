// Operations: the service's operations, newest first (install, configuration, actions, upgrades, backups…), each
// with its phases and plans task by task; followed live as the agents report.
import { useEffect, useState, type ReactElement } from 'react';
import { serviceSheetStore, useFormat, useServiceSheet, useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { OperationStateBadge, ServiceOperation, useOperationLabel } from '../services/ServiceOperation';

export function SheetOperations(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const label = useOperationLabel();
  const operations = useServiceSheet((s) => s.operations);
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => {
    void serviceSheetStore.getState().loadOperations();
  }, []);
  const items = operations.value ?? [];
  const shown = items.find((o) => o.id === open) ?? items.find((o) => o.state === 'running') ?? null;
  return (
    <div className="sheet-operations">
      {operations.error ? <ErrorNotice error={operations.error} /> : null}
      {items.length === 0 && operations.status === 'ready' ? <p className="muted">{t('sheet.operations.none')}</p> : null}
      <ul className="plain-list" data-testid="sheet-operations">
        {items.map((o) => (
          <li key={o.id} data-testid="sheet-operation" data-action={o.action} data-state={o.state}>
            <button
              type="button"
              className="btn btn-sm"
              aria-expanded={shown?.id === o.id}
              onClick={() => setOpen(shown?.id === o.id ? null : o.id)}
            >
              {label(o.action)}
            </button>{' '}
            <OperationStateBadge state={o.state} /> <code>{o.version}</code> · {fmt.dateTime(o.created_at)} · {o.requested_by}
            {o.code ? <code> {o.code}</code> : null}
          </li>
        ))}
      </ul>
      {shown ? <ServiceOperation operation={shown} /> : null}
    </div>
  );
}
