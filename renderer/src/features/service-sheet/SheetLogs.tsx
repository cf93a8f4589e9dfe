// Logs: the last lines of each instance's journal, read by its agent on demand; Follow reads them again every few
// seconds; the search keeps the lines that hold its text. A host whose agent did not answer says so.
import { useEffect, type ReactElement } from 'react';
import { serviceSheetStore, useFormat, useServiceSheet, useSession, useT } from '../../app/stores';
import { BusyButton } from '../../components/BusyButton';
import { CheckOption } from '../../components/CheckOption';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Panel } from '../../components/Panel';
import { searchLogs } from './store';
import { selectCanWrite } from '../session/store';

export function SheetLogs(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { logs, following, search } = useServiceSheet.fields('logs', 'following', 'search');
  const canWrite = useSession(selectCanWrite);
  useEffect(() => {
    if (canWrite) void serviceSheetStore.getState().readLogs();
    return () => serviceSheetStore.getState().follow(false);
  }, [canWrite]);
  if (!canWrite) return <p className="muted">{t('sheet.logs.operatorsOnly')}</p>;
  const shown = searchLogs(logs.value ?? [], search);
  return (
    <div className="sheet-logs">
      <div className="form form-inline">
        <BusyButton
          busy={logs.status === 'loading'}
          text={['sheet.logs.read', 'sheet.logs.reading']}
          icon="refresh"
          variant="plain"
          onClick={() => void serviceSheetStore.getState().readLogs()}
          testId="sheet-logs-read"
        />
        <CheckOption
          className="radio-option"
          checked={following}
          onChange={(on) => serviceSheetStore.getState().follow(on)}
          testId="sheet-logs-follow"
        >
          {t('sheet.logs.follow')}
        </CheckOption>
        <label className="field field-inline">
          {t('sheet.logs.search')}
          <input
            type="search"
            value={search}
            onChange={(e) => serviceSheetStore.getState().setSearch(e.target.value)}
            data-testid="sheet-logs-search"
          />
        </label>
      </div>
      {logs.error ? <ErrorNotice error={logs.error} testId="sheet-logs-error" /> : null}
      {shown.map(({ log, lines }) => (
        <Panel
          key={log.host_id}
          titleId={`sheet-log-${log.host_id}`}
          title={`${log.host_name} · ${log.unit}`}
          testId="sheet-log"
          data={{ 'data-host': log.host_name, 'data-state': log.state }}
        >
          <p className="muted">
            {t(`sheet.logs.state.${log.state}`)} · {fmt.dateTime(log.read_at)}
            {log.code ? <code> {log.code}</code> : null} · {t('sheet.logs.lines', { n: lines.length })}
          </p>
          <pre className="log-lines selectable" tabIndex={0} data-testid="sheet-log-lines">
            {lines.join('\n')}
          </pre>
        </Panel>
      ))}
    </div>
  );
}
