// Configuration: the files and units the console wrote, as each host's agent recorded them (sha256, size, when,
// and whether the last drift scan found one changed), then the numbered configuration versions and the settings
// that differ between two of them.
import { useEffect, useState, type ReactElement } from 'react';
import type { ServiceConfigVersion } from '../../../../preload/api';
import { serviceSheetStore, useFormat, useServiceSheet, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Options } from '../../components/Options';
import { Panel } from '../../components/Panel';
import { formatBytes } from './units';

/** The settings whose values differ between two versions (added and removed ones too). */
export function settingsDiff(a: ServiceConfigVersion, b: ServiceConfigVersion): { key: string; from: string; to: string }[] {
  const keys = [...new Set([...Object.keys(a.config), ...Object.keys(b.config)])].sort();
  const show = (v: unknown) => (v === undefined ? '—' : JSON.stringify(v));
  return keys.filter((k) => a.config[k] !== b.config[k]).map((k) => ({ key: k, from: show(a.config[k]), to: show(b.config[k]) }));
}

function VersionPick({
  label,
  numbers,
  value,
  onPick,
  testId,
}: {
  label: string;
  numbers: number[];
  value: number | undefined;
  onPick: (n: number) => void;
  testId: string;
}): ReactElement {
  return (
    <label className="field field-inline">
      {label}
      <select value={value ?? ''} onChange={(e) => onPick(Number(e.target.value))} data-testid={testId}>
        <Options values={numbers.map(String)} label={(n) => n} />
      </select>
    </label>
  );
}

export function SheetConfiguration(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const files = useServiceSheet((s) => s.sheet.value?.configuration.files ?? []);
  const versions = useServiceSheet((s) => s.versions);
  useEffect(() => {
    void serviceSheetStore.getState().loadVersions();
  }, []);
  const list = versions.value ?? [];
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  const newest = list.at(-1)?.number ?? null;
  const a = list.find((v) => v.number === (from ?? (newest !== null ? newest - 1 : null)));
  const b = list.find((v) => v.number === (to ?? newest));
  const diff = a && b ? settingsDiff(a, b) : null;
  return (
    <div className="sheet-configuration">
      <Panel titleId="sheet-files-title" title={t('sheet.config.files')} icon="key">
        <DataTable
          caption={t('sheet.config.files')}
          columns={(['host', 'path', 'sha256', 'size', 'written', 'drift'] as const).map((c) => t(`sheet.config.col.${c}`))}
          testId="sheet-files"
        >
          {files.map((f) => (
            <tr key={`${f.host_name}:${f.path}`} data-testid="sheet-file" data-path={f.path} data-drift={f.drift ?? ''}>
              <td>{f.host_name}</td>
              <th scope="row">
                <code>{f.path}</code>
              </th>
              <td>
                <code className="digest selectable">{f.sha256}</code>
              </td>
              <td>{formatBytes(t, fmt.number, f.size)}</td>
              <td>{fmt.dateTime(f.written_at)}</td>
              <td>{f.drift ? <Tone tone="bad">{t(`sheet.drift.${f.drift}`)}</Tone> : <Tone tone="ok">{t('sheet.drift.none')}</Tone>}</td>
            </tr>
          ))}
        </DataTable>
      </Panel>
      <Panel titleId="sheet-versions-title" title={t('sheet.config.versions')} icon="edit" testId="sheet-config-versions">
        {versions.error ? <ErrorNotice error={versions.error} /> : null}
        <ol className="plain-list">
          {list.map((v) => (
            <li key={v.number} data-testid="sheet-config-version" data-number={v.number}>
              <strong>{t('sheet.config.version', { n: v.number })}</strong> · {fmt.dateTime(v.created_at)}
              {v.restored_from !== null ? <span className="muted"> · {t('sheet.config.restoredFrom', { n: v.restored_from })}</span> : null}
            </li>
          ))}
        </ol>
        {list.length > 1 ? (
          <div className="form form-inline">
            <VersionPick
              label={t('sheet.config.from')}
              numbers={list.map((v) => v.number)}
              value={a?.number}
              onPick={setFrom}
              testId="sheet-diff-from"
            />
            <VersionPick
              label={t('sheet.config.to')}
              numbers={list.map((v) => v.number)}
              value={b?.number}
              onPick={setTo}
              testId="sheet-diff-to"
            />
          </div>
        ) : null}
        {diff ? (
          diff.length === 0 ? (
            <p className="muted" data-testid="sheet-diff-same">
              {t('sheet.config.same')}
            </p>
          ) : (
            <DataTable
              caption={t('sheet.config.diff')}
              columns={(['setting', 'from', 'to'] as const).map((c) => t(`sheet.config.col.${c}`))}
              testId="sheet-diff"
            >
              {diff.map((d) => (
                <tr key={d.key} data-testid="sheet-diff-row" data-key={d.key}>
                  <th scope="row">
                    <code>{d.key}</code>
                  </th>
                  <td>
                    <code>{d.from}</code>
                  </td>
                  <td>
                    <code>{d.to}</code>
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        ) : null}
      </Panel>
    </div>
  );
}
