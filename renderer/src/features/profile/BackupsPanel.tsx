// The backup sets of the open cluster (each file with its sha256 and size), "Back up now", and restoring one
// component from a set (with its approval under a four-eyes profile).
import { useState, type ReactElement } from 'react';
import type { BackupSet } from '../../api/types';
import { ApprovalPicker } from '../approvals/ApprovalPicker';
import { profileStore, useFormat, useProfile, useSession, useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { selectCanWrite } from '../session/store';
import { Panel } from '../../components/Panel';
import { DataTable } from '../../components/DataTable';
import { Options } from '../../components/Options';
import { WriteButton } from '../../components/WriteButton';

const BACK_UP = {
  text: ['backups.now', 'backups.running'],
  icon: 'download',
  variant: 'plain',
  size: 'sm',
  testId: 'back-up-now',
} as const;

export function BackupsPanel(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const {
    backups,
    backupsStatus: status,
    backupsError: error,
    backingUp,
  } = useProfile.fields('backups', 'backupsStatus', 'backupsError', 'backingUp');
  const canWrite = useSession(selectCanWrite);

  return (
    <Panel
      titleId="backups-title"
      title={t('backups.title')}
      testId="backups-panel"
      actions={<WriteButton {...BACK_UP} busy={backingUp.pending} onClick={profileStore.getState().backUpNow} />}
    >
      {backingUp.error ? <ErrorNotice error={backingUp.error} testId="back-up-error" /> : null}
      {error ? <ErrorNotice error={error} testId="backups-error" /> : null}
      {status === 'ready' && backups.length === 0 ? (
        <p className="muted" data-testid="backups-none">
          {t('backups.none')}
        </p>
      ) : null}
      {backups.length > 0 ? (
        <ul className="plain-list" data-testid="backups-list">
          {backups.map((b) => (
            <li key={b.id} data-testid="backup-set" data-backup-id={b.id}>
              <p>
                <strong>{fmt.dateTimeLong(b.created_at)}</strong>{' '}
                <span className="muted">{t('backups.by', { by: b.created_by, id: b.id })}</span>
              </p>
              {b.files.length === 0 ? (
                <p className="muted">{t('backups.noFiles')}</p>
              ) : (
                <DataTable
                  caption={t('backups.filesOf', { id: b.id })}
                  columns={[...(['name', 'file', 'size', 'sha256'] as const).map((c) => t(`backups.col.${c}`))]}
                  wrap={false}
                >
                  {b.files.map((f) => (
                    <tr key={`${f.name}:${f.file}`}>
                      <th scope="row">{f.name}</th>
                      <td>
                        <code>{f.file}</code>
                      </td>
                      <td>{t('backups.bytes', { size: fmt.number(f.size) })}</td>
                      <td>
                        <code className="digest selectable">{f.sha256}</code>
                      </td>
                    </tr>
                  ))}
                </DataTable>
              )}
              {canWrite ? <RestoreForm set={b} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Panel>
  );
}

const COMPONENT_FILE = 'managedcomponent/';

function RestoreForm({ set }: { set: BackupSet }): ReactElement | null {
  const t = useT();
  const { restoring, view } = useProfile.fields('restoring', 'view');
  const services = set.files.filter((f) => f.name.startsWith(COMPONENT_FILE)).map((f) => f.name.slice(COMPONENT_FILE.length));
  const [service, setService] = useState(services[0] ?? '');
  const [approvalId, setApprovalId] = useState('');
  if (services.length === 0) return null;
  const fourEyes = view?.four_eyes === true;
  return (
    <form
      className="form form-inline"
      onSubmit={(e) => {
        e.preventDefault();
        if (!restoring.pending && service)
          void profileStore.getState().restore(set.id, service, fourEyes && approvalId ? approvalId : undefined);
      }}
      data-testid="restore-form"
    >
      <div className="field field-inline">
        <label htmlFor={`restore-${set.id}`}>{t('backups.restore.component')}</label>
        <select id={`restore-${set.id}`} value={service} onChange={(e) => setService(e.target.value)} data-testid="restore-service">
          <Options values={services} label={(n) => n} />
        </select>
        {fourEyes && view ? (
          <ApprovalPicker action="restore" service={service} state={[approvalId, setApprovalId]} idSuffix={`restore-${set.id}`} />
        ) : null}
        <button type="submit" className="btn btn-sm" disabled={restoring.pending} data-testid="restore-submit">
          {restoring.pending ? t('backups.restore.running') : t('backups.restore.submit')}
        </button>
      </div>
      {restoring.error ? <ErrorNotice error={restoring.error} testId="restore-error" /> : null}
      {restoring.done ? (
        <p role="status" data-testid="restore-done">
          {t('backups.restore.done', { id: restoring.done.slice(0, 8) })}
        </p>
      ) : null}
    </form>
  );
}
