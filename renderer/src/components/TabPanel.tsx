// A cluster tab built on one panel: the tab's wrapper, the panel titled with the tab's name and icon, the tab's
// write (for those who may write) then the button that reads it again, the help line under the title; what the
// tab shows beside the panel (a form, an operation) comes after it.
import type { ReactElement, ReactNode } from 'react';
import { useT } from '../app/stores';
import type { PlainKey } from '../lib/plainKey';
import type { BusyButtonLook } from './BusyButton';
import type { IconName } from './Icon';
import { Panel } from './Panel';
import { RefreshButton } from './RefreshButton';
import { WriteButton } from './WriteButton';

/** A tab's names: `<name>-tab` is its class, `<name>-title` its heading's id, `cluster-<name>` (or `testId`) its test id. */
export interface TabIdentity {
  name: string;
  testId?: string;
  icon: IconName;
  title: PlainKey;
  help: PlainKey;
}

/** The one write a tab offers in its head (a scan, an archive): a small plain button, busy while it runs. */
export type TabWrite = Pick<BusyButtonLook, 'text' | 'icon' | 'testId'> & { busy: boolean; onClick: () => unknown };

export interface TabPanelProps {
  tab: TabIdentity;
  /** Reads the tab's data again. */
  onReload: () => void;
  write?: TabWrite;
  /** Beside the panel, inside the tab. */
  after?: ReactNode;
  children?: ReactNode;
}

export function TabPanel({ tab, onReload, write, after, children }: TabPanelProps): ReactElement {
  const t = useT();
  return (
    <div className={`${tab.name}-tab`} data-testid={tab.testId ?? `cluster-${tab.name}`}>
      <Panel
        titleId={`${tab.name}-title`}
        title={t(tab.title)}
        icon={tab.icon}
        actions={
          <>
            {write ? <WriteButton variant="plain" size="sm" {...write} /> : null}
            <RefreshButton onClick={onReload} />
          </>
        }
      >
        <p className="help">{t(tab.help)}</p>
        {children}
      </Panel>
      {after}
    </div>
  );
}
