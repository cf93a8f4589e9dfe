// The commands sent to one cluster, live.
import { useEffect, type ReactElement } from 'react';
import { clusterCommandsStore, useClusterCommands, useT } from '../../app/stores';
import { CommandsBody } from './CommandParts';
import { StateFilter } from '../../components/ClusterFilters';

export function ClusterCommandsTab({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const stateFilter = useClusterCommands((s) => s.stateFilter);

  useEffect(() => {
    void clusterCommandsStore.getState().setScope(clusterId);
  }, [clusterId]);

  return (
    <div className="commands-tab" data-testid="cluster-commands">
      <div className="toolbar">
        <StateFilter value={stateFilter} onChange={(v) => clusterCommandsStore.getState().setStateFilter(v)} />
        <p className="toolbar-count">{t('commands.liveNote')}</p>
      </div>
      <CommandsBody store={clusterCommandsStore} emptyBody={t('commands.empty.clusterBody')} />
    </div>
  );
}
