// Every signed command with its state and receipts, for all clusters or one; live through `command.changed`.
import { useEffect, useMemo, type ReactElement } from 'react';
import { clustersStore, commandsStore, useClusters, useCommands, useT } from '../../app/stores';
import type { CommandState } from '../../api/types';
import { COMMAND_STATES, selectVisibleCommands } from '../../stores/commands';
import { CommandsBody } from './CommandParts';
import { ScreenHeader } from '../../components/ScreenHeader';
import { Options } from '../../components/Options';
import { RefreshButton } from '../../components/RefreshButton';

export function StateFilter({
  value,
  onChange,
}: {
  value: CommandState | 'all';
  onChange: (v: CommandState | 'all') => void;
}): ReactElement {
  const t = useT();
  return (
    <div className="field field-inline">
      <label htmlFor="command-state-filter">{t('commands.filter.state')}</label>
      <select
        id="command-state-filter"
        value={value}
        onChange={(e) => onChange(e.target.value as CommandState | 'all')}
        data-testid="command-state-filter"
      >
        <option value="all">{t('commands.filter.allStates')}</option>
        <Options values={COMMAND_STATES} label={(s) => t(`command.state.${s}`)} />
      </select>
    </div>
  );
}

export function ClusterSelect({
  id,
  value,
  onChange,
  label,
  testId,
  emptyLabel,
}: {
  id: string;
  value: string;
  onChange: (id: string) => void;
  label: string;
  testId?: string;
  /** The first option (no cluster): "All clusters" unless said otherwise. */
  emptyLabel?: string;
}): ReactElement {
  const t = useT();
  const clusters = useClusters((s) => s.items);
  const sorted = useMemo(() => clusters.slice().sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true })), [clusters]);
  return (
    <div className="field field-inline">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        <option value="">{emptyLabel ?? t('commands.filter.allClusters')}</option>
        {sorted.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** id → name of the clusters the console knows. */
export function useClusterNames(): (id: string) => string | null {
  const clusters = useClusters((s) => s.items);
  return useMemo(() => {
    const m = new Map(clusters.map((c) => [c.id, c.name]));
    return (id: string) => m.get(id) ?? null;
  }, [clusters]);
}

export function CommandsScreen(): ReactElement {
  const t = useT();
  const rows = useCommands(selectVisibleCommands);
  const total = useCommands((s) => s.items.length);
  const { status, error, clusterId, expandedId, stateFilter } = useCommands.fields(
    'status',
    'error',
    'clusterId',
    'expandedId',
    'stateFilter',
  );
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
        actions={
          <>
            <RefreshButton onClick={() => void commandsStore.getState().load()} />
          </>
        }
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
      <CommandsBody
        error={error}
        loading={status === 'loading'}
        total={total}
        emptyBody={t('commands.empty.body')}
        table={{ commands: rows, expandedId, onToggle: (id) => commandsStore.getState().toggleExpanded(id), clusterName: nameOf }}
      />
    </section>
  );
}
