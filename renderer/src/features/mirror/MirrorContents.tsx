// What the mirror holds, per service and version: each artifact's architectures, digest, and whether it is
// the file the catalog pins; then the container images.
import type { ReactElement } from 'react';
import { mirrorStore, useMirror, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { EmptyState } from '../../components/EmptyState';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Button } from '../../components/Button';
import { Panel } from '../../components/Panel';

const short = (digest: string): string => digest.replace('sha256:', '').slice(0, 12);

export function MirrorContents(): ReactElement {
  const t = useT();
  const inventory = useMirror((s) => s.inventory);
  const status = useMirror((s) => s.inventoryStatus);
  const error = useMirror((s) => s.inventoryError);

  return (
    <Panel
      titleId="mirror-contents-title"
      title={t('mirrorScreen.contents.title')}
      testId="mirror-contents"
      actions={
        <Button look="btn-sm" icon="refresh" onClick={() => void mirrorStore.getState().loadInventory()} testId="mirror-refresh">
          {t('common.refresh')}
        </Button>
      }
    >
      {inventory ? <p className="help mono">{inventory.mirror}</p> : null}
      {error && status === 'error' ? <ErrorNotice error={error} testId="mirror-contents-error" /> : null}
      {inventory && inventory.artifacts.length + inventory.images.length === 0 ? (
        <EmptyState icon="components" title={t('mirrorScreen.contents.empty')} testId="mirror-empty">
          <p>{t('mirrorScreen.contents.emptyBody')}</p>
        </EmptyState>
      ) : null}
      {inventory && inventory.artifacts.length > 0 ? (
        <div className="table-wrap">
          <table className="grid" data-testid="mirror-artifacts">
            <thead>
              <tr>
                <th scope="col">{t('mirrorScreen.col.service')}</th>
                <th scope="col">{t('mirrorScreen.col.version')}</th>
                <th scope="col">{t('mirrorScreen.col.artifact')}</th>
                <th scope="col">{t('mirrorScreen.col.architectures')}</th>
                <th scope="col">{t('mirrorScreen.col.digest')}</th>
                <th scope="col">{t('mirrorScreen.col.catalog')}</th>
              </tr>
            </thead>
            <tbody>
              {inventory.artifacts.map((a) => (
                <tr key={a.key} data-testid="mirror-artifact" data-key={a.key}>
                  <td>{a.service}</td>
                  <td className="mono">{a.version}</td>
                  <td className="mono">{a.name}</td>
                  <td>{a.platforms.map((p) => p.architecture).join(', ')}</td>
                  <td>
                    <code title={a.digest}>{short(a.digest)}</code>
                  </td>
                  <td>
                    {a.problem ? (
                      <Tone tone="bad">{t('mirrorScreen.catalog.problem')}</Tone>
                    ) : (
                      <Tone
                        tone={a.catalog === 'pinned' ? 'ok' : a.catalog === 'differs' ? 'bad' : 'neutral'}
                        testId="mirror-catalog-state"
                      >
                        {t(`mirrorScreen.catalog.${a.catalog}`)}
                      </Tone>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {inventory && inventory.images.length > 0 ? (
        <>
          <h3 className="mirror-subtitle">{t('mirrorScreen.contents.images')}</h3>
          <ul className="plain-list" data-testid="mirror-images">
            {inventory.images.map((i) => (
              <li key={`${i.repository}:${i.tag}`} data-testid="mirror-image">
                <code>
                  {i.repository}:{i.tag}
                </code>{' '}
                <code title={i.digest}>{short(i.digest)}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Panel>
  );
}
