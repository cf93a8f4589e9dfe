// The Support tab of a hosts cluster: what a support archive will hold (the preview, before anything is built),
// "Create archive" (a redacted tar.gz: secrets, credentials, keys, e-mail addresses, user names, phone and card
// numbers, IP addresses in logs replaced; operators as pseudonyms), its manifest's counts, and the archives kept.
import { useEffect, useState, type ReactElement } from 'react';
import type { SupportArchiveCreated } from '../../../../preload/api';
import { supportStore, useFormat, useSupport, useT } from '../../app/stores';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';
import { TabPanel, type TabIdentity } from '../../components/TabPanel';

const TAB: TabIdentity = { name: 'support', icon: 'download', title: 'support.title', help: 'support.help' };
const CREATE = { text: ['support.create', 'support.creating'], icon: 'download', testId: 'support-create' } as const;

export function SupportTab({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { view, error, writes } = useSupport.fields('view', 'error', 'writes');
  const [created, setCreated] = useState<SupportArchiveCreated | null>(null);

  useEffect(() => {
    void supportStore.getState().open(clusterId);
  }, [clusterId]);

  const create = (): Promise<void> =>
    supportStore
      .getState()
      .write('create', (client, id) => client.createSupportArchive(id))
      .then(setCreated);

  return (
    <TabPanel
      tab={TAB}
      onReload={() => void supportStore.getState().load()}
      write={{ ...CREATE, busy: writes.create.pending, onClick: create }}
    >
      {writes.create.error ? <ErrorNotice error={writes.create.error} testId="support-create-error" /> : null}
      {error ? <ErrorNotice error={error} testId="support-error" /> : null}
      {created ? (
        <div role="status" data-testid="support-created" data-redacted={String(created.manifest.redacted)}>
          <p>
            {t(created.manifest.redacted ? 'support.created' : 'support.createdNotRedacted', {
              id: created.id,
              size: fmt.number(created.bytes),
            })}
          </p>
          <ul className="plain-list" data-testid="support-replacements">
            {Object.entries(created.manifest.replacements).map(([kind, n]) => (
              <li key={kind} data-kind={kind}>
                <code>{kind}</code>: {fmt.number(n)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <h3>{t('support.preview')}</h3>
      <DataTable
        caption={t('support.preview')}
        columns={[t('support.col.path'), t('support.col.kind'), t('support.col.size')]}
        testId="support-preview"
      >
        {(view?.preview ?? []).map((p) => (
          <tr key={p.path} data-testid="support-preview-item">
            <th scope="row">
              <code>{p.path}</code>
            </th>
            <td>{t(`support.kind.${p.kind}`)}</td>
            <td>{t('backups.bytes', { size: fmt.number(p.bytes) })}</td>
          </tr>
        ))}
      </DataTable>
      <h3>{t('support.archives')}</h3>
      {view && view.archives.length === 0 ? (
        <p className="muted" data-testid="support-none">
          {t('support.none')}
        </p>
      ) : (
        <DataTable
          caption={t('support.archives')}
          columns={[t('support.col.archive'), t('support.col.created'), t('support.col.size')]}
          testId="support-archives"
        >
          {(view?.archives ?? []).map((a) => (
            <tr key={a.id} data-testid="support-archive">
              <th scope="row">
                <code>{a.id}</code>
              </th>
              <td>{fmt.dateTime(a.created_at)}</td>
              <td>{t('backups.bytes', { size: fmt.number(a.bytes) })}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </TabPanel>
  );
}
