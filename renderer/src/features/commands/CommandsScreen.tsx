// Every signed command with its state and receipts, for all clusters or one; live through `command.changed`.
import { useEffect, type ReactElement } from 'react';
import { clustersStore, commandsStore, useCommands, useT } from '../../app/stores';
import { selectVisibleCommands } from './store';
import { CommandsBody } from './CommandParts';
import { ClusterSelect, StateFilter, useClusterNames } from '../../components/ClusterFilters';
import { ScreenHeader } from '../../components/ScreenHeader';
import { RefreshButton } from '../../components/RefreshButton';

export function CommandsScreen(): ReactElement {
  const t = useT();
  const rows = useCommands(selectVisibleCommands);
  const total = useCommands((s) => s.items.length);
  const { clusterId, stateFilter } = useCommands.fields('clusterId', 'stateFilter');
  const nameOf = useClusterNames();

  useEffect(() => {
    void commandsStore.getState().setScope(commandsStore.getState().clusterId);
    if (clustersStore.getState().status === 'idle') void clustersStore.getState().load();
  }, []);

  return (
    <section className="screen" aria-labelledby="screen-title" data-testid="screen-commands">
      <ScreenHeader
        title={t('nav.commands')}
        subtitle={t('commands.subtitle')}
        actions={<RefreshButton onClick={() => void commandsStore.getState().load()} />}
      />
      <div className="toolbar">
        <ClusterSelect
          id="commands-cluster"
          label={t('commands.filter.cluster')}
          value={clusterId ?? ''}
          onChange={(id) => void commandsStore.getState().setScope(id || null)}
          testId="commands-cluster"
        />
        <StateFilter value={stateFilter} onChange={(v) => commandsStore.getState().setStateFilter(v)} />
        <p className="toolbar-count" data-testid="commands-count">
          {t('commands.count', { shown: rows.length, total })}
        </p>
      </div>
      <CommandsBody store={commandsStore} emptyBody={t('commands.empty.body')} clusterName={nameOf} />
    </section>
  );
}
