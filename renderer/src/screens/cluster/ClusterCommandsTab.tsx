// The commands sent to one cluster, live.
import { useEffect, type ReactElement } from 'react';
import { clusterCommandsStore, useClusterCommands, useT } from '../../app/stores';
import { selectVisibleCommands } from '../../stores/commands';
import { EmptyState } from '../../components/EmptyState';
import { ErrorNotice } from '../../components/ErrorNotice';
import { CommandsTable } from '../commands/CommandParts';
import { StateFilter } from '../commands/CommandsScreen';

export function ClusterCommandsTab({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const rows = useClusterCommands(selectVisibleCommands);
  const total = useClusterCommands((s) => s.items.length);
  const status = useClusterCommands((s) => s.status);
  const error = useClusterCommands((s) => s.error);
  const expandedId = useClusterCommands((s) => s.expandedId);
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
      {error ? <ErrorNotice error={error} testId="commands-error" /> : null}
      {status === 'loading' && total === 0 ? (
        <div className="loading" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('app.loading')}
        </div>
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
