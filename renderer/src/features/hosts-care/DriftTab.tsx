// The Drift tab of a hosts cluster: the config_drift alert while a finding is open, "Scan now" (the agents hash
// every managed file and unit; the manager also scans every hour), the findings (modified, deleted, replaced) with
// how each was resolved, "Realign" on an open one, and the report-only mode for change-freeze periods.
import { useEffect, useState, type ReactElement } from 'react';
import { driftModes, type DriftFindingView, type DriftMode, type OperationView } from '../../../../preload/api';
import { driftStore, useDrift, useFormat, useSession, useT } from '../../app/stores';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Icon } from '../../components/Icon';
import { ListView, type EmptyList } from '../../components/ListView';
import { TabPanel, type TabIdentity } from '../../components/TabPanel';
import { selectCanWrite } from '../session/store';

const TAB: TabIdentity = { name: 'drift', icon: 'alert', title: 'drift.title', help: 'drift.help' };
const SCAN = { text: ['drift.scanNow', 'drift.scanning'], icon: 'refresh', testId: 'drift-scan-now' } as const;
const EMPTY: EmptyList = { icon: 'check', title: 'drift.empty.title', body: 'drift.empty.body', testId: 'drift-empty' };

export function DriftTab({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { view, status, error, writes } = useDrift.fields('view', 'status', 'error', 'writes');
  const canWrite = useSession(selectCanWrite);
  const [realigning, setRealigning] = useState<OperationView | null>(null);

  useEffect(() => {
    void driftStore.getState().open(clusterId);
  }, [clusterId]);

  const findings = view?.findings ?? [];
  return (
    <TabPanel
      tab={TAB}
      onReload={() => void driftStore.getState().load()}
      write={{
        ...SCAN,
        busy: writes.scan.pending,
        onClick: () => driftStore.getState().write('scan', (client, id) => client.scanDrift(id)),
      }}
    >
      {view?.alert ? (
        <p className="notice notice-warning" role="alert" data-testid="drift-alert">
          <Icon name="alert" />
          {t('drift.alert', { count: String(view.alert.open_findings), since: fmt.dateTime(view.alert.since) })}
        </p>
      ) : view ? (
        <p className="muted" data-testid="drift-clear">
          {t('drift.clear')}
        </p>
      ) : null}
      {view?.scanned && view.scanned.unanswered.length > 0 ? (
        <p className="notice" role="status" data-testid="drift-unanswered">
          {t('drift.unanswered', { hosts: view.scanned.unanswered.join(', ') })}
        </p>
      ) : null}
      {view ? (
        <div className="field field-inline">
          <label htmlFor="drift-mode">{t('drift.mode')}</label>
          <select
            id="drift-mode"
            value={view.mode}
            disabled={!canWrite || writes.mode.pending}
            onChange={(e) => void driftStore.getState().write('mode', (client, id) => client.setDriftMode(id, e.target.value as DriftMode))}
            data-testid="drift-mode"
          >
            {driftModes.map((m) => (
              <option key={m} value={m}>
                {t(`drift.mode.${m}`)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {(['scan', 'mode', 'realign'] as const).map((w) =>
        writes[w].error ? <ErrorNotice key={w} error={writes[w].error} testId={`drift-${w}-error`} /> : null,
      )}
      {error ? <ErrorNotice error={error} testId="drift-error" /> : null}
      {realigning && !writes.realign.error ? (
        <p role="status" data-testid="drift-realign-started">
          {t('drift.realignStarted', { service: realigning.service, id: realigning.id.slice(0, 8) })}
        </p>
      ) : null}
      <ListView status={status} count={findings.length} empty={EMPTY}>
        <DataTable
          caption={t('drift.findings')}
          columns={[
            ...(['host', 'path', 'state', 'service', 'detected', 'resolution'] as const).map((c) => t(`drift.col.${c}`)),
            { header: t('drift.col.actions'), hidden: true },
          ]}
          testId="drift-findings"
        >
          {findings.map((f) => (
            <FindingRow
              key={f.id}
              finding={f}
              canRealign={canWrite && view?.mode === 'realign'}
              busy={writes.realign.pending}
              onRealign={setRealigning}
            />
          ))}
        </DataTable>
      </ListView>
    </TabPanel>
  );
}

function FindingRow({
  finding: f,
  canRealign,
  busy,
  onRealign,
}: {
  finding: DriftFindingView;
  canRealign: boolean;
  busy: boolean;
  onRealign: (op: OperationView | null) => void;
}): ReactElement {
  const t = useT();
  const fmt = useFormat();
  return (
    <tr data-testid="drift-finding" data-finding-id={f.id} data-path={f.path} data-state={f.state} data-resolution={f.resolution ?? ''}>
      <th scope="row">{f.host_name}</th>
      <td>
        <code>{f.path}</code>
        {f.detail ? <span className="muted"> ({f.detail})</span> : null}
      </td>
      <td>{t(`drift.state.${f.state}`)}</td>
      <td>{f.service ?? '—'}</td>
      <td>{fmt.dateTime(f.detected_at)}</td>
      <td>
        {f.resolution
          ? t('drift.resolved', { how: t(`drift.resolution.${f.resolution}`), at: fmt.dateTime(f.resolved_at!) })
          : t('drift.open')}
      </td>
      <td>
        {canRealign && !f.resolved_at ? (
          <button
            type="button"
            className="btn btn-sm"
            disabled={busy}
            onClick={() =>
              void driftStore
                .getState()
                .write('realign', (client) => client.realignFinding(f.id))
                .then(onRealign)
            }
            aria-label={t('drift.realignName', { path: f.path, host: f.host_name })}
            data-testid="drift-realign"
          >
            {t('drift.realign')}
          </button>
        ) : null}
      </td>
    </tr>
  );
}
