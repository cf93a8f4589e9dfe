// The commands sent to one cluster, live.
import { useEffect, type ReactElement } from 'react';
import { clusterCommandsStore, useClusterCommands, useT } from '../../app/stores';
import { selectVisibleCommands } from '../../stores/commands';
import { CommandsBody } from '../commands/CommandParts';
import { StateFilter } from '../../components/ClusterFilters';

export function ClusterCommandsTab({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const rows = useClusterCommands(selectVisibleCommands);
  const total = useClusterCommands((s) => s.items.length);
  const { status, error, expandedId, stateFilter } = useClusterCommands.fields('status', 'error', 'expandedId', 'stateFilter');

  useEffect(() => {
    void clusterCommandsStore.getState().setScope(clusterId);
  }, [clusterId]);

  return (
    <div className="commands-tab" data-testid="cluster-commands">
      <div className="toolbar">
        <StateFilter value={stateFilter} onChange={(v) => clusterCommandsStore.getState().setStateFilter(v)} />
        <p className="toolbar-count">{t('commands.liveNote')}</p>
      </div>
      <CommandsBody
        error={error}
        loading={status === 'loading'}
        total={total}
        emptyBody={t('commands.empty.clusterBody')}
        table={{ commands: rows, expandedId, onToggle: (id) => clusterCommandsStore.getState().toggleExpanded(id) }}
      />
    </div>
  );
}
