// The Backups tab of a hosts cluster: "Back up now" for the chosen services that keep data (all by default, taken
// in dependency order under one set id), the sets with each file's sha256, and the restore of one service from a
// set (its files checked again on the host before anything is stopped). Live: sets move on as operations end.
import { useEffect, useState, type ReactElement } from 'react';
import type { OperationView, ServiceBackupSet } from '../../../../preload/api';
import { serviceBackupsStore, servicesStore, useFormat, useServiceBackups, useServices, useSession, useT } from '../../app/stores';
import { BusyButton } from '../../components/BusyButton';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ListView, type EmptyList } from '../../components/ListView';
import { TabPanel, type TabIdentity } from '../../components/TabPanel';
import { clusterHash } from '../../stores/router';
import { selectCanWrite } from '../session/store';
import { OperationStateBadge } from '../services/ServiceOperation';
import { approvalTargetOf, ApprovalRetry } from '../approvals/RetryWithApproval';

const TAB: TabIdentity = {
  name: 'service-backups',
  testId: 'cluster-backups',
  icon: 'download',
  title: 'serviceBackups.title',
  help: 'serviceBackups.help',
};
const EMPTY: EmptyList = {
  icon: 'download',
  title: 'serviceBackups.empty.title',
  body: 'serviceBackups.empty.body',
  testId: 'service-backups-empty',
};

/** With `service`, the tab is that service's (the component sheet's Backups tab): its backups, Back up now for it. */
export function ServiceBackupsTab({ clusterId, service }: { clusterId: string; service?: string }): ReactElement {
  const t = useT();
  const { view, status, error, writes } = useServiceBackups.fields('view', 'status', 'error', 'writes');
  const { items: services, catalog } = useServices.fields('items', 'catalog');
  const canWrite = useSession(selectCanWrite);
  const keeping = services
    .filter((s) => catalog.find((c) => c.service === s.service)?.backup && (service === undefined || s.service === service))
    .map((s) => s.service);
  const sets = (view ?? [])
    .filter((set) => service === undefined || set.backups.some((b) => b.service === service))
    .map((set) => (service === undefined ? set : { ...set, backups: set.backups.filter((b) => b.service === service) }));
  const [unchecked, setUnchecked] = useState<ReadonlySet<string>>(new Set());
  const [restoring, setRestoring] = useState<OperationView | null>(null);
  const chosen = keeping.filter((s) => !unchecked.has(s));

  useEffect(() => {
    void serviceBackupsStore.getState().open(clusterId);
    void servicesStore.getState().open(clusterId);
  }, [clusterId]);

  /** A backup that stops a server is four-eyes under banking-secure: then with an approval of that very set of services. */
  const backUp = (approvalId?: string): void =>
    void serviceBackupsStore
      .getState()
      .write('backUp', (client, id) => client.backUpServices(id, chosen.length === keeping.length ? undefined : chosen, approvalId));

  return (
    <TabPanel tab={TAB} onReload={() => void serviceBackupsStore.getState().load()}>
      {canWrite ? (
        <form
          className="form form-inline"
          onSubmit={(e) => {
            e.preventDefault();
            if (!writes.backUp.pending && chosen.length > 0) backUp();
          }}
          data-testid="back-up-form"
        >
          <fieldset className="field field-inline">
            <legend>{t('serviceBackups.services')}</legend>
            {keeping.length === 0 ? <span className="muted">{t('serviceBackups.nothingToBackUp')}</span> : null}
            {keeping.map((s) => (
              <label key={s} className="radio-option">
                <input
                  type="checkbox"
                  checked={!unchecked.has(s)}
                  onChange={(e) => {
                    const next = new Set(unchecked);
                    if (e.target.checked) next.delete(s);
                    else next.add(s);
                    setUnchecked(next);
                  }}
                  data-testid={`back-up-service-${s}`}
                />
                {s}
              </label>
            ))}
          </fieldset>
          <BusyButton
            submit
            busy={writes.backUp.pending}
            disabled={chosen.length === 0}
            text={['serviceBackups.now', 'serviceBackups.starting']}
            icon="download"
            testId="service-back-up-now"
          />
        </form>
      ) : null}
      {writes.backUp.error ? <ErrorNotice error={writes.backUp.error} testId="service-back-up-error" /> : null}
      <ApprovalRetry
        write={writes.backUp}
        act={{ clusterId, action: 'backup', service: approvalTargetOf(writes.backUp.error, chosen.join(',')) }}
        idSuffix="back-up"
        onRetry={backUp}
      />
      {writes.restore.error ? <ErrorNotice error={writes.restore.error} testId="service-restore-error" /> : null}
      {restoring && !writes.restore.error ? (
        <p role="status" data-testid="service-restore-started">
          {t('serviceBackups.restoreStarted', { service: restoring.service, id: restoring.id.slice(0, 8) })}{' '}
          <a href={clusterHash(clusterId, 'services')}>{t('serviceBackups.followOnServices')}</a>
        </p>
      ) : null}
      {error ? <ErrorNotice error={error} testId="service-backups-error" /> : null}
      <ListView status={status} count={sets.length} empty={EMPTY}>
        <ul className="plain-list" data-testid="service-backup-sets">
          {sets.map((set) => (
            <BackupSetItem key={set.id} set={set} canWrite={canWrite} busy={writes.restore.pending} onRestored={setRestoring} />
          ))}
        </ul>
      </ListView>
    </TabPanel>
  );
}

export function BackupSetItem({
  set,
  canWrite,
  busy,
  onRestored,
}: {
  set: ServiceBackupSet;
  canWrite: boolean;
  busy: boolean;
  onRestored: (op: OperationView | null) => void;
}): ReactElement {
  const t = useT();
  const fmt = useFormat();
  return (
    <li data-testid="service-backup-set" data-set-id={set.id} data-state={set.state}>
      <p>
        <strong>{fmt.dateTimeLong(set.created_at)}</strong> <OperationStateBadge state={set.state} />{' '}
        <span className="muted">
          {t(`serviceBackups.reason.${set.reason}`)} · {t('serviceBackups.by', { by: set.requested_by })} · <code>{set.id}</code>
        </span>
      </p>
      {set.message ? (
        <p className="muted" data-testid="service-backup-set-message">
          {set.code ? <code>{set.code}</code> : null} {set.message}
        </p>
      ) : set.withheld?.includes('output') ? (
        // Its message quoted what the backup tool printed: the code stays, the reader is told why the rest is not here.
        <p className="muted" data-testid="service-backup-set-withheld">
          {set.code ? <code>{set.code}</code> : null} {t('command.withheld.output')}
        </p>
      ) : null}
      <DataTable
        caption={t('serviceBackups.filesOf', { id: set.id })}
        columns={[
          ...(['service', 'version', 'host', 'file', 'size', 'sha256'] as const).map((c) => t(`serviceBackups.col.${c}`)),
          { header: t('serviceBackups.col.actions'), hidden: true },
        ]}
        wrap={false}
      >
        {set.backups.flatMap((b) =>
          b.files.map((f, i) => (
            <tr key={`${b.service}:${f.name}`} data-testid="service-backup-file" data-service={b.service}>
              <th scope="row">{i === 0 ? b.service : null}</th>
              <td>{i === 0 ? b.version : null}</td>
              <td>{i === 0 ? b.host.name : null}</td>
              <td>
                <code>{f.path}</code>
              </td>
              <td>{t('backups.bytes', { size: fmt.number(f.size) })}</td>
              <td>
                <code className="digest selectable" data-testid="service-backup-sha256">
                  {f.sha256}
                </code>
              </td>
              <td>
                {canWrite && i === 0 ? (
                  <button
                    type="button"
                    className="btn btn-sm"
                    disabled={busy}
                    onClick={() =>
                      void serviceBackupsStore
                        .getState()
                        .write('restore', (client, id) => client.restoreServiceBackup(id, set.id, b.service))
                        .then(onRestored)
                    }
                    aria-label={t('serviceBackups.restoreName', { service: b.service, id: set.id })}
                    data-testid={`service-restore-${b.service}`}
                  >
                    {t('serviceBackups.restore')}
                  </button>
                ) : null}
              </td>
            </tr>
          )),
        )}
      </DataTable>
    </li>
  );
}
