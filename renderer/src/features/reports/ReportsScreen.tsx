// Signed acceptance reports: run acceptance on a cluster, the list (download the signed JSON, open or save
// the HTML in English or French), and "Open a report": a JSON file checked OFFLINE, in the console, against a
// manager.pem file or this manager's own key. The manager's public keys, with a "Save manager.pem" button.
import { useEffect, useState, type ReactElement } from 'react';
import { clustersStore, reportsStore, useClusters, useFormat, useLocale, useReports, useSession, useSystem, useT } from '../../app/stores';
import { reportHtmlPath } from '../../api/client';
import type { ReportSummary } from '../../api/types';
import { isMessageKey, translateLoose } from '../../i18n';
import { MEDIA, saveText } from '../../lib/files';
import { pickText, readVerifiedPayload } from './store';
import { selectCanWrite } from '../session/store';
import { VerdictBadge } from '../../components/Badges';
import { ErrorNotice, InfoNotice } from '../../components/ErrorNotice';
import { FilePick } from '../../components/FilePick';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { ClusterSelect, useClusterNames } from '../../components/ClusterFilters';
import { ScreenHeader } from '../../components/ScreenHeader';
import { Panel } from '../../components/Panel';
import { DataTable } from '../../components/DataTable';
import { ListView, type EmptyList } from '../../components/ListView';
import { CodeTerm } from '../../components/Term';
import { BusyButton } from '../../components/BusyButton';

const EMPTY: EmptyList = { icon: 'reports', title: 'reports.list.empty', body: 'reports.list.emptyBody', testId: 'reports-empty' };

export function ReportsScreen(): ReactElement {
  const t = useT();
  const unavailable = useReports((s) => s.unavailable);

  useEffect(() => {
    void reportsStore.getState().load();
    void reportsStore.getState().loadKeys();
    if (clustersStore.getState().status === 'idle') void clustersStore.getState().load();
  }, []);

  return (
    <section className="screen" aria-labelledby="screen-title" data-testid="screen-reports">
      <ScreenHeader title={t('nav.reports')} subtitle={t('reports.subtitle')} />
      {unavailable ? <InfoNotice testId="reports-unavailable">{t('reports.unavailable')}</InfoNotice> : null}
      {/* The list spans the screen's width, so its three action buttons fit on one row in either language. */}
      <div className="reports-stack">
        {unavailable ? null : <RunAcceptance />}
        {unavailable ? null : <ReportList />}
        <div className="reports-grid">
          <OpenReport />
          <Keys />
        </div>
      </div>
    </section>
  );
}

function RunAcceptance(): ReactElement {
  const t = useT();
  const canWrite = useSession(selectCanWrite);
  const run = useReports((s) => s.run);
  const clusters = useClusters((s) => s.items);
  const [clusterId, setClusterId] = useState('');
  const chosen = clusterId || (clusters.length === 1 ? (clusters[0]?.id ?? '') : '');
  if (!canWrite) return <></>;
  return (
    <Panel titleId="run-title" title={t('reports.run.title')} testId="run-acceptance">
      <p className="help">{t('reports.run.help')}</p>
      <div className="toolbar">
        <ClusterSelect
          id="run-cluster"
          label={t('reports.run.cluster')}
          value={chosen}
          onChange={setClusterId}
          testId="run-cluster"
          emptyLabel={t('reports.run.choose')}
        />
        <BusyButton
          busy={run.pending}
          disabled={!chosen}
          text={['reports.run.button', 'reports.run.running']}
          icon="checks"
          onClick={() => reportsStore.getState().runAcceptance(chosen)}
          testId="run-submit"
        />
      </div>
      {run.error ? <ErrorNotice error={run.error} testId="run-error" /> : null}
      {run.report ? (
        <div className="notice notice-info" role="status" data-testid="run-result">
          <div className="notice-body">
            <p className="notice-title">
              {t('reports.run.done', { cluster: run.report.payload.cluster_name ?? run.report.payload.cluster_id })}{' '}
              <VerdictBadge verdict={run.report.payload.verdict} />
            </p>
            <p>{t('reports.run.lines', { count: run.report.payload.lines?.length ?? 0 })}</p>
          </div>
        </div>
      ) : null}
    </Panel>
  );
}

function ReportList(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { items, status, error, fetchError, clusterId } = useReports.fields('items', 'status', 'error', 'fetchError', 'clusterId');
  const transport = useSystem((s) => s.transport);
  const nameOf = useClusterNames();

  const download = async (r: ReportSummary): Promise<void> => {
    const doc = await reportsStore.getState().fetchReport(r.id);
    if (doc) saveText(`report-${r.id}.json`, `${JSON.stringify(doc, null, 2)}\n`, MEDIA.json);
  };
  const saveHtml = async (r: ReportSummary, lang: 'en' | 'fr'): Promise<void> => {
    const html = await reportsStore.getState().fetchHtml(r.id, lang);
    if (html !== null) saveText(`report-${r.id}.${lang}.html`, html, MEDIA.html);
  };

  return (
    <Panel
      titleId="reports-list-title"
      title={t('reports.list.title')}
      testId="reports-list"
      actions={
        <>
          <ClusterSelect
            id="reports-cluster"
            label={t('reports.list.cluster')}
            value={clusterId ?? ''}
            onChange={(id) => void reportsStore.getState().load(id || null)}
          />
        </>
      }
    >
      {error && status === 'error' ? <ErrorNotice error={error} testId="reports-error" /> : null}
      {fetchError ? <ErrorNotice error={fetchError} testId="report-fetch-error" /> : null}
      <ListView status={status} count={items.length} empty={EMPTY}>
        <DataTable
          columns={[
            ...(['created', 'cluster', 'verdict', 'key'] as const).map((c) => t(`reports.col.${c}`)),
            { header: t('reports.col.actions'), hidden: true },
          ]}
          testId="reports-table"
        >
          {items.map((r) => (
            <tr key={r.id} data-testid="report-row">
              <td className="nowrap">{fmt.dateTime(r.created_at)}</td>
              <td>
                <code className="nowrap">{r.cluster_name ?? nameOf(r.cluster_id) ?? r.cluster_id}</code>
              </td>
              <td>
                <VerdictBadge verdict={r.verdict} />
              </td>
              <td>
                <code>{r.key_id}</code>
              </td>
              <td>
                <div className="report-actions">
                  <button
                    type="button"
                    className="btn btn-sm"
                    onClick={() => void download(r)}
                    title={t('reports.json.title')}
                    data-testid="report-json"
                  >
                    <Icon name="download" />
                    {t('reports.json')}
                  </button>
                  {(['en', 'fr'] as const).map((lang) =>
                    transport === 'http' ? (
                      <a
                        key={lang}
                        className="btn btn-sm"
                        href={reportHtmlPath(r.id, lang)}
                        target="_blank"
                        rel="noopener noreferrer"
                        lang={lang}
                        title={t(`reports.html.${lang}.title`)}
                        data-testid={`report-html-${lang}`}
                      >
                        <Icon name="external" />
                        {t(`reports.html.${lang}`)}
                      </a>
                    ) : (
                      <button
                        key={lang}
                        type="button"
                        className="btn btn-sm"
                        onClick={() => void saveHtml(r, lang)}
                        title={t(`reports.html.${lang}.title`)}
                        data-testid={`report-html-${lang}`}
                      >
                        <Icon name="download" />
                        {t(`reports.html.${lang}`)}
                      </button>
                    ),
                  )}
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      </ListView>
    </Panel>
  );
}

function OpenReport(): ReactElement {
  const t = useT();
  const locale = useLocale();
  const fmt = useFormat();
  const { report, pem, check, pemError } = useReports.fields('report', 'pem', 'check', 'pemError');
  const [tooLarge, setTooLarge] = useState<string | null>(null);

  // A new file or key: check again at once (offline, nothing is sent).
  useEffect(() => {
    if (report && pem) void reportsStore.getState().verify();
  }, [report, pem]);

  const verified = check?.ok ? readVerifiedPayload(check.payload) : null;
  const codeKey = check && !check.ok ? `report.check.${check.code}` : null;

  return (
    <Panel titleId="open-report-title" icon="shield" title={t('reports.open.title')} testId="open-report">
      <p className="help">{t('reports.open.help')}</p>
      <div className="pick-row">
        <FilePick
          label={t('reports.open.pickReport')}
          accept=".json,application/json"
          onFile={(f) => {
            setTooLarge(null);
            reportsStore.getState().openReportFile(f);
          }}
          onTooLarge={setTooLarge}
          maxBytes={8 << 20}
          testId="report-file"
        />
        <span className="file-chosen" data-testid="report-file-name">
          {report ? <code>{report.name}</code> : <span className="muted">{t('reports.open.noReport')}</span>}
        </span>
      </div>
      <div className="pick-row">
        <FilePick
          label={t('reports.open.pickKey')}
          accept=".pem,application/x-pem-file,text/plain"
          onFile={(f) => reportsStore.getState().openPemFile(f)}
          testId="pem-file"
        />
        <Button look="btn-sm" icon="key" onClick={() => void reportsStore.getState().useManagerKey()} testId="use-manager-key">
          {t('reports.open.useManagerKey')}
        </Button>
        <span className="file-chosen" data-testid="pem-name">
          {pem ? (
            pem.source === 'manager' ? (
              t('reports.open.managerKey')
            ) : (
              <code>{pem.name}</code>
            )
          ) : (
            <span className="muted">{t('reports.open.noKey')}</span>
          )}
        </span>
      </div>
      {tooLarge ? <p className="field-error">{t('import.fileTooLarge', { file: tooLarge })}</p> : null}
      {pemError ? <ErrorNotice error={pemError} testId="pem-error" /> : null}
      {check && !check.ok ? (
        <div className="notice notice-error" role="alert" data-testid="report-invalid" data-code={check.code}>
          <Icon name="alert" className="notice-icon" />
          <div className="notice-body">
            <p className="notice-title">{t('reports.open.invalid')}</p>
            <p>{codeKey && isMessageKey(codeKey) ? translateLoose(locale, codeKey) : check.message}</p>
            <p className="notice-detail">{t('error.details', { message: check.message })}</p>
            <p className="notice-meta">
              {t('error.code')} <code>{check.code}</code>
            </p>
          </div>
        </div>
      ) : null}
      {verified ? (
        <div className="verified" data-testid="report-valid">
          <div className="notice notice-success" role="status">
            <Icon name="shield" className="notice-icon" />
            <div className="notice-body">
              <p className="notice-title">
                {t('reports.open.valid')} <VerdictBadge verdict={verified.verdict} />
              </p>
              <p>{t('reports.open.signedBy', { key: verified.keyId })}</p>
            </div>
          </div>
          <dl className="kv">
            <CodeTerm name={t('reports.open.reportId')} value={verified.reportId} className="selectable" />
            <CodeTerm name={t('reports.col.cluster')} value={verified.clusterName || verified.clusterId} />
            <dt>{t('reports.col.created')}</dt>
            <dd>{verified.createdAt ? fmt.dateTimeLong(verified.createdAt) : '–'}</dd>
            <CodeTerm name={t('reports.col.key')} value={verified.keyId} testId="verified-key-id" />
            {verified.keyFingerprint ? (
              <CodeTerm
                name={t('reports.open.fingerprint')}
                value={verified.keyFingerprint}
                className="selectable hash"
                testId="verified-fingerprint"
              />
            ) : null}
          </dl>
          <ol className="report-lines" aria-label={t('reports.open.lines')}>
            {verified.lines.map((l) => (
              <li key={l.id} className="report-line" data-status={l.status}>
                <VerdictBadge verdict={l.status} />
                <span className="report-line-title">{pickText(l.title, locale) || l.id}</span>
                {l.reason ? (
                  <span className="report-line-reason">{t('reports.open.reason', { reason: pickText(l.reason, locale) })}</span>
                ) : null}
                {l.evidence !== null ? (
                  <details>
                    <summary>{t('reports.open.evidence')}</summary>
                    <pre className="json-inline">{JSON.stringify(l.evidence, null, 2)}</pre>
                  </details>
                ) : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </Panel>
  );
}

function Keys(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { keys, keysError: error, pemError } = useReports.fields('keys', 'keysError', 'pemError');
  const save = async (): Promise<void> => {
    const pem = await reportsStore.getState().fetchManagerPem();
    if (pem !== null) saveText('manager.pem', pem, MEDIA.pem);
  };
  return (
    <Panel
      titleId="keys-title"
      icon="key"
      title={t('reports.keys.title')}
      testId="manager-keys"
      actions={
        <>
          <button type="button" className="btn btn-sm btn-primary" onClick={() => void save()} data-testid="save-manager-pem">
            <Icon name="download" />
            {t('reports.keys.save')}
          </button>
        </>
      }
    >
      <p className="help">{t('reports.keys.help')}</p>
      {error ? <ErrorNotice error={error} testId="keys-error" /> : null}
      {pemError ? <ErrorNotice error={pemError} testId="save-pem-error" /> : null}
      <ul className="plain-list key-list">
        {keys.map((k) => (
          <li key={k.key_id} data-testid="key-row">
            <code className="selectable">{k.key_id}</code>{' '}
            {k.active ? (
              <span className="badge tone-ok">{t('reports.keys.active')}</span>
            ) : k.retired_at ? (
              <span className="badge">{t('reports.keys.retired')}</span>
            ) : (
              <span className="badge tone-info">{t('reports.keys.trusted')}</span>
            )}
            <span className="muted"> {t('reports.keys.created', { when: fmt.dateTime(k.created_at) })}</span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
