// The commands sent to one cluster, live.
import { useEffect, type ReactElement } from 'react';
import { clusterCommandsStore, useClusterCommands, useT } from '../../app/stores';
import { selectVisibleCommands } from '../../stores/commands';
import { EmptyState } from '../../components/EmptyState';
import { ErrorNotice } from '../../components/ErrorNotice';
import { CommandsTable } from '../commands/CommandParts';
import { StateFilter } from '../commands/CommandsScreen';
import { Loading } from '../../components/Loading';

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
      {error ? <ErrorNotice error={error} testId="commands-error" /> : null}
      {status === 'loading' && total === 0 ? (
        <Loading />
      ) : total === 0 ? (
        <EmptyState icon="commands" title={t('commands.empty.title')} testId="commands-empty">
          <p>{t('commands.empty.clusterBody')}</p>
        </EmptyState>
      ) : (
        <CommandsTable commands={rows} expandedId={expandedId} onToggle={(id) => clusterCommandsStore.getState().toggleExpanded(id)} />
      )}
    </div>
  );
}
