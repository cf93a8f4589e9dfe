// Importing an offline bundle: the path of the bundle file on this workstation (the manager runs here), then
// the import followed live with a progress bar, and its outcome: the tags pushed, or the refusal and its code.
import { useState, type ReactElement } from 'react';
import { mirrorStore, useMirror, useFormat, useSession, useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { Form } from '../../components/Form';
import { Panel } from '../../components/Panel';
import { ApiError } from '../../api/client';

const MB = 1_000_000;

export function ImportPanel(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const { current, progress, starting } = useMirror.fields('current', 'progress', 'starting');
  const [path, setPath] = useState('');

  const running = current?.state === 'running';
  const onSubmit = (): void => {
    if (path.trim()) void mirrorStore.getState().startImport(path.trim());
  };
  const ratio = progress && progress.bytes_total > 0 ? progress.bytes_done / progress.bytes_total : 0;
  const refusal =
    current && current.state !== 'running' && current.state !== 'done' && current.code
      ? new ApiError({ code: current.code, status: 0, message: current.message ?? '' })
      : null;

  return (
    <Panel titleId="mirror-import-title" title={t('mirrorScreen.import.title')} testId="mirror-import">
      <p className="help">{t('mirrorScreen.import.help')}</p>
      {isAdmin ? (
        <Form onSubmit={onSubmit} testId="mirror-import-form">
          <Field id="bundle-path" label={t('mirrorScreen.import.path')} hint={t('mirrorScreen.import.pathHint')}>
            <input
              className="mono"
              value={path}
              onChange={(e) => setPath(e.target.value)}
              placeholder="/media/usb/navin-bundle.tar"
              autoComplete="off"
              spellCheck={false}
              data-testid="bundle-path"
            />
          </Field>
          {starting.error ? <ErrorNotice error={starting.error} testId="mirror-import-start-error" /> : null}
          <div className="form-actions">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={!path.trim() || starting.pending || running}
              aria-busy={starting.pending || running || undefined}
              data-testid="bundle-import"
            >
              <Icon name="upload" />
              {running ? t('mirrorScreen.import.running') : t('mirrorScreen.import.button')}
            </button>
          </div>
        </Form>
      ) : (
        <p className="muted">{t('mirrorScreen.import.adminOnly')}</p>
      )}
      {current ? (
        <div className="mirror-import-status" data-testid="mirror-import-status" data-state={current.state}>
          <p className="mono">{current.bundle_file}</p>
          {running ? (
            <>
              <progress
                className="mirror-progress"
                max={1}
                value={ratio}
                aria-label={t('mirrorScreen.import.progress')}
                data-testid="mirror-progress"
                data-phase={progress?.phase ?? 'verifying'}
              />
              <p role="status" data-testid="mirror-progress-text">
                {t(`mirrorScreen.phase.${progress?.phase ?? 'verifying'}`)} ·{' '}
                {t('mirrorScreen.import.bytes', {
                  done: fmt.number(Math.round((progress?.bytes_done ?? 0) / MB)),
                  total: fmt.number(Math.round((progress?.bytes_total ?? 0) / MB)),
                  percent: Math.floor(ratio * 100),
                })}
              </p>
            </>
          ) : current.state === 'done' ? (
            <div className="notice notice-info" role="status" data-testid="mirror-import-done">
              <div className="notice-body">
                <p className="notice-title">{t('mirrorScreen.import.done', { count: current.result?.items.length ?? 0 })}</p>
                <ul className="plain-list">
                  {(current.result?.items ?? []).map((i) => (
                    <li key={`${i.repository}:${i.tag}`}>
                      <code>{i.key}</code> → <code>{i.reference}</code>
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          ) : refusal ? (
            <ErrorNotice error={refusal} testId="mirror-import-refused" />
          ) : null}
        </div>
      ) : null}
    </Panel>
  );
}
