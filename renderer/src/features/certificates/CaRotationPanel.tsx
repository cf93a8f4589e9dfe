// The manager CA's rotation on the Certificates screen: its state, how many agents stand at each stage, and the
// agents it waits for, the offline ones marked (they hold it in its stage). Read again every 5 s while one is under way.
import { useEffect, useState, type ReactElement } from 'react';
import type { CaRotationView } from '../../../../preload/api';
import { client, useT } from '../../app/stores';

const STAGES = ['pending', 'trusts-both', 'renewed', 'trusts-new'] as const;
type T = ReturnType<typeof useT>;
const stateText = (t: T, state: CaRotationView['state']): string =>
  ({
    started: t('certificates.rotation.state.started'),
    'serving-new': t('certificates.rotation.state.serving-new'),
    retiring: t('certificates.rotation.state.retiring'),
    done: t('certificates.rotation.state.done'),
  })[state];
const stageText = (t: T, stage: (typeof STAGES)[number]): string =>
  ({
    pending: t('certificates.rotation.stage.pending'),
    'trusts-both': t('certificates.rotation.stage.trusts-both'),
    renewed: t('certificates.rotation.stage.renewed'),
    'trusts-new': t('certificates.rotation.stage.trusts-new'),
  })[stage];

export function CaRotationPanel(): ReactElement | null {
  const t = useT();
  const [rotation, setRotation] = useState<CaRotationView | null>(null);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = (): void => {
      void client.caRotation().then(
        (r) => {
          if (!live) return;
          setRotation(r.rotation);
          if (r.rotation && r.rotation.state !== 'done') timer = setTimeout(load, 5000);
        },
        () => undefined,
      );
    };
    load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  if (!rotation) return null;
  return (
    <section className="panel ca-rotation" aria-label={t('certificates.rotation.title')} data-testid="ca-rotation">
      <h2>{t('certificates.rotation.title')}</h2>
      <p data-testid="ca-rotation-state">{stateText(t, rotation.state)}</p>
      <ul className="ca-rotation-stages">
        {STAGES.map((s) => (
          <li key={s} data-testid={`ca-rotation-stage-${s}`}>
            {stageText(t, s)}: {rotation.stages[s]}
          </li>
        ))}
      </ul>
      {rotation.waiting_for.length > 0 ? (
        <p data-testid="ca-rotation-waiting">
          {t('certificates.rotation.waitingFor')}{' '}
          {rotation.agents
            .filter((a) => rotation.waiting_for.includes(a.name))
            .map((a) => (a.offline ? `${a.name} (${t('certificates.rotation.offline')})` : a.name))
            .join(', ')}
        </p>
      ) : null}
    </section>
  );
}
