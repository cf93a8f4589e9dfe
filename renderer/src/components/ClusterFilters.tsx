// Filters several screens share (commands, audit, reports, a cluster's commands tab): the cluster picker, the
// command-state picker, and the id → name lookup of the clusters the console knows.
import { useMemo, type ReactElement } from 'react';
import { useClusters, useT } from '../app/stores';
import type { CommandState } from '../api/types';
import { commandStates } from '../../../preload/api';
import { ItemOptions, Options } from './Options';

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
        <Options values={commandStates} label={(s) => t(`command.state.${s}`)} />
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
        <ItemOptions items={sorted} value={(c) => c.id} label={(c) => c.name} />
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
