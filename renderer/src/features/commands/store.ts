// Signed commands and their receipts, for every cluster or for one (the cluster page's tab has its own
// instance). Live: a `command.changed` event with an id re-reads that command (its receipt appears without a
// reload); one without an id (a delivery) reloads the list. Both coalesced.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiEvent } from '../../../../preload/api';
import { toApiError, type ApiClient, type ApiError } from '../../api/client';
import type { CommandState, CommandView } from '../../api/types';
import type { LoadStatus } from '../clusters/store';
import { coalescer, eventCluster, eventField } from '../../stores/live';

export const COMMANDS_LIMIT = 200;

export interface CommandsState {
  /** The cluster the list is limited to; null: every cluster. */
  clusterId: string | null;
  items: CommandView[];
  status: LoadStatus;
  error: ApiError | null;
  stateFilter: CommandState | 'all';
  expandedId: string | null;

  /** Limits the list to a cluster (or none) and loads it. */
  setScope(clusterId: string | null): Promise<void>;
  load(): Promise<void>;
  loadOne(id: string): Promise<void>;
  /** A command this console just issued: shown at once. */
  upsert(command: CommandView): void;
  setStateFilter(state: CommandState | 'all'): void;
  toggleExpanded(id: string): void;
  handleEvent(event: ApiEvent): void;
  startLive(): () => void;
  reset(): void;
}

export type CommandsStore = StoreApi<CommandsState>;

export function createCommandsStore(deps: { client: ApiClient; eventDebounceMs?: number }): CommandsStore {
  const { client } = deps;
  const debounceMs = deps.eventDebounceMs ?? 150;
  const initial = {
    clusterId: null,
    items: [] as CommandView[],
    status: 'idle' as LoadStatus,
    error: null,
    stateFilter: 'all' as const,
    expandedId: null,
  };
  let seq = 0;
  const pendingIds = new Set<string>();

  return createStore<CommandsState>()((set, get) => {
    const reload = coalescer(debounceMs, () => void get().load());
    const reloadSome = coalescer(debounceMs, () => {
      const ids = [...pendingIds];
      pendingIds.clear();
      for (const id of ids) void get().loadOne(id);
    });
    const inScope = (c: CommandView): boolean => get().clusterId === null || c.cluster_id === get().clusterId;

    return {
      ...initial,

      async setScope(clusterId) {
        if (get().clusterId !== clusterId) {
          seq++;
          reload.cancel();
          reloadSome.cancel();
          pendingIds.clear();
          set({ ...initial, stateFilter: get().stateFilter, clusterId });
        }
        await get().load();
      },

      async load() {
        const mine = ++seq;
        const clusterId = get().clusterId;
        if (get().status !== 'ready') set({ status: 'loading' });
        try {
          const list = await client.listCommands({ cluster_id: clusterId ?? undefined, limit: COMMANDS_LIMIT });
          if (mine !== seq) return;
          set({ items: sortCommands(Array.isArray(list?.items) ? list.items : []), status: 'ready', error: null });
        } catch (e) {
          if (mine !== seq) return;
          set({ status: get().items.length > 0 ? 'ready' : 'error', error: toApiError(e) });
        }
      },

      async loadOne(id) {
        try {
          const command = await client.getCommand(id);
          if (inScope(command)) get().upsert(command);
        } catch (e) {
          const error = toApiError(e);
          if (error.code === 'not_found') set((s) => ({ items: s.items.filter((c) => c.id !== id) }));
        }
      },

      upsert(command) {
        if (!inScope(command)) return;
        set((s) => {
          const i = s.items.findIndex((c) => c.id === command.id);
          if (i === -1) return { items: sortCommands([command, ...s.items]).slice(0, COMMANDS_LIMIT), status: 'ready' };
          const items = s.items.slice();
          items[i] = command;
          return { items };
        });
      },

      setStateFilter(stateFilter) {
        set({ stateFilter });
      },

      toggleExpanded(id) {
        set((s) => ({ expandedId: s.expandedId === id ? null : id }));
      },

      handleEvent(event) {
        if (event.type !== 'command.changed') return;
        const scope = get().clusterId;
        const cluster = eventCluster(event);
        if (scope !== null && cluster !== null && cluster !== scope) return;
        const id = eventField(event, 'id');
        if (id) {
          pendingIds.add(id);
          reloadSome.trigger();
        } else reload.trigger();
      },

      startLive() {
        return client.onEvent((event) => get().handleEvent(event));
      },

      reset() {
        seq++;
        reload.cancel();
        reloadSome.cancel();
        pendingIds.clear();
        set({ ...initial });
      },
    };
  });
}

/** Newest first; ties by id so the order is stable. */
export function sortCommands(items: readonly CommandView[]): CommandView[] {
  return items.slice().sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : -1));
}

const filtered = new WeakMap<CommandView[], Map<string, CommandView[]>>();

/** The commands shown with the state filter (stable reference per items and filter). */
export function selectVisibleCommands(s: CommandsState): CommandView[] {
  if (s.stateFilter === 'all') return s.items;
  let byState = filtered.get(s.items);
  if (!byState) {
    byState = new Map();
    filtered.set(s.items, byState);
  }
  let rows = byState.get(s.stateFilter);
  if (!rows) {
    rows = s.items.filter((c) => c.state === s.stateFilter);
    byState.set(s.stateFilter, rows);
  }
  return rows;
}

/** The component a command is about (apply/delete), or null. */
export function commandTarget(c: Pick<CommandView, 'args'>): string | null {
  const a = c.args;
  if (typeof a === 'object' && a !== null && typeof (a as { name?: unknown }).name === 'string') return (a as { name: string }).name;
  return null;
}

/** The managed namespace of a cluster as its signed desired state names it (args.desired_state.payload.namespace). */
export function commandNamespace(c: Pick<CommandView, 'args'>): string | null {
  const a = c.args as { desired_state?: { payload?: { namespace?: unknown } } } | null;
  const ns = a?.desired_state?.payload?.namespace;
  return typeof ns === 'string' && ns.length > 0 ? ns : null;
}

export const FINAL_STATES: readonly CommandState[] = ['succeeded', 'failed', 'rejected'];
