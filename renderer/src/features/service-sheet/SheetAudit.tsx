// Audit: the rows of the audit trail about this service (its operations, their failures), newest first.
import { useEffect, type ReactElement } from 'react';
import { serviceSheetStore, useFormat, useServiceSheet, useT } from '../../app/stores';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';

export function SheetAudit(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const audit = useServiceSheet((s) => s.audit);
  useEffect(() => {
    void serviceSheetStore.getState().loadAudit();
  }, []);
  const rows = audit.value ?? [];
  return (
    <div className="sheet-audit">
      {audit.error ? <ErrorNotice error={audit.error} /> : null}
      {rows.length === 0 && audit.status === 'ready' ? <p className="muted">{t('sheet.audit.none')}</p> : null}
      <DataTable
        caption={t('sheet.audit.caption')}
        columns={(['seq', 'at', 'actor', 'action', 'details'] as const).map((c) => t(`sheet.audit.col.${c}`))}
        testId="sheet-audit"
      >
        {rows.map((r) => (
          <tr key={r.seq} data-testid="sheet-audit-row" data-action={r.action}>
            <td>{r.seq}</td>
            <td>{fmt.dateTime(r.at)}</td>
            <td>{r.actor}</td>
            <th scope="row">
              <code>{r.action}</code>
            </th>
            <td>
              <code className="selectable">{JSON.stringify(r.details)}</code>
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
