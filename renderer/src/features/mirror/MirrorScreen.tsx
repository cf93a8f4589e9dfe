// The Mirror screen: how artifacts cross the air gap. Import a signed offline bundle, see what the internal
// mirror holds per service and version, and which release keys a bundle may be signed by.
import { useEffect, type ReactElement } from 'react';
import { mirrorStore, useT } from '../../app/stores';
import { ScreenHeader } from '../../components/ScreenHeader';
import { ImportPanel } from './ImportPanel';
import { MirrorContents } from './MirrorContents';
import { ReleaseKeysPanel } from './ReleaseKeysPanel';
import './mirror.css';

export function MirrorScreen(): ReactElement {
  const t = useT();
  useEffect(() => {
    void mirrorStore.getState().load();
  }, []);
  return (
    <section className="screen" aria-labelledby="screen-title" data-testid="screen-mirror">
      <ScreenHeader title={t('nav.mirror')} subtitle={t('mirrorScreen.subtitle')} />
      <ImportPanel />
      <MirrorContents />
      <ReleaseKeysPanel />
    </section>
  );
}
