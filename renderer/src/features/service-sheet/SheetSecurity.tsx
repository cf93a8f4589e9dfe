// Security: the service's endpoints (port, whether it can and does serve TLS there, whether each host's agent saw
// it listening), the certificate each TLS port served as the checks observed it, the files that hold its secrets, and the rules of the cluster's profile, judged now.
import { useEffect, type ReactElement } from 'react';
import { profileStore, useProfile, useServiceSheet, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { DataTable } from '../../components/DataTable';
import { Panel } from '../../components/Panel';
import { CheckList } from '../../components/CheckList';
import { SheetCertificates } from './SheetCertificates';

export function SheetSecurity({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const security = useServiceSheet((s) => s.sheet.value!.security);
  const view = useProfile((s) => (s.clusterId === clusterId ? s.view : null));
  useEffect(() => {
    void profileStore.getState().open(clusterId);
  }, [clusterId]);
  return (
    <div className="sheet-security">
      <Panel titleId="sheet-endpoints" title={t('sheet.security.endpoints')} icon="shield">
        <DataTable
          caption={t('sheet.security.endpoints')}
          columns={(['name', 'port', 'tls', 'listening'] as const).map((c) => t(`sheet.security.col.${c}`))}
          testId="sheet-endpoints"
        >
          {security.endpoints.map((e) => (
            <tr key={e.name} data-testid="sheet-endpoint" data-port={e.port}>
              <th scope="row">
                {e.name}
                <br />
                <span className="muted">{e.description}</span>
              </th>
              <td>{e.port}</td>
              <td>
                {e.tls_enabled ? (
                  <Tone tone="ok">{t('sheet.security.tlsOn')}</Tone>
                ) : (
                  <Tone tone="neutral">{t('sheet.security.tlsOff')}</Tone>
                )}
                {e.tls_capable && !e.tls_enabled ? <span className="muted"> · {t('sheet.security.tlsCapable')}</span> : null}
              </td>
              <td>
                <ul className="plain-list">
                  {e.listening.map((l) => (
                    <li
                      key={l.host_name}
                      data-testid="sheet-endpoint-listening"
                      data-host={l.host_name}
                      data-listening={String(l.listening)}
                    >
                      {l.host_name} ·{' '}
                      {l.listening === null ? (
                        '—'
                      ) : l.listening ? (
                        <Tone tone="ok">{t('sheet.security.listening')}</Tone>
                      ) : (
                        <Tone tone="bad">{t('sheet.security.notListening')}</Tone>
                      )}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </DataTable>
      </Panel>
      <Panel titleId="sheet-certificates-title" title={t('sheet.security.certificates')} icon="key">
        <SheetCertificates endpoints={security.endpoints} />
      </Panel>
      <Panel titleId="sheet-secrets" title={t('sheet.security.secrets')} icon="key">
        {security.secrets.length === 0 ? (
          <p className="muted" data-testid="sheet-secrets-none">
            {t('sheet.security.noSecrets')}
          </p>
        ) : (
          <ul className="plain-list">
            {security.secrets.map((f) => (
              <li key={`${f.host_name}:${f.path}`} data-testid="sheet-secret">
                {f.host_name} · <code>{f.path}</code>
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <Panel titleId="sheet-profile" title={t('sheet.security.profile')} icon="check" testId="sheet-profile">
        {view ? (
          <CheckList checks={view.rules} label={t('sheet.security.profile')} testId="sheet-profile-rules" showCritical={false} />
        ) : null}
      </Panel>
    </div>
  );
}
