// The components of the open cluster: its desired state (generation + ManagedComponents), apply and delete
// (each a signed command, answered 202 with the command), stop / start / restart / rollback, each with the
// four-eyes approval it needs under banking-secure. Observed state is not reported by the agent yet.
// Live: `command.changed` for this cluster reloads the desired state (another operator may have changed it).
import { createStore, type StoreApi } from 'zustand/vanilla';
import { toApiError, type ApiError } from '../../api/client';
import type { CommandView, ComponentAction, ComponentsView, ManagedComponentSpec, ObservedComponent } from '../../api/types';
import type { LoadStatus } from '../clusters/store';
import { coalescer, eventCluster, type LiveDeps, type LiveStore } from '../../stores/live';

export interface ComponentMutation {
  pending: boolean;
  /** The component the mutation is about. */
  name: string | null;
  /** For `action`: which operation. */
  action?: ComponentAction | null;
  error: ApiError | null;
  /** The command the manager issued for it. */
  command: CommandView | null;
}

export interface ComponentsState extends LiveStore {
  clusterId: string | null;
  view: ComponentsView | null;
  status: LoadStatus;
  error: ApiError | null;
  apply: ComponentMutation;
  removal: ComponentMutation;
  action: ComponentMutation;

  load(clusterId: string): Promise<void>;
  applyComponent(name: string, spec: ManagedComponentSpec, approvalId?: string): Promise<CommandView | null>;
  removeComponent(name: string, approvalId?: string): Promise<CommandView | null>;
  runAction(name: string, action: ComponentAction, approvalId?: string): Promise<CommandView | null>;
  clearApply(): void;
  clearRemoval(): void;
  clearAction(): void;
}

export type ComponentsStore = StoreApi<ComponentsState>;

const IDLE: ComponentMutation = { pending: false, name: null, error: null, command: null };

export function createComponentsStore(deps: LiveDeps): ComponentsStore {
  const { client } = deps;
  const initial = { clusterId: null, view: null, status: 'idle' as LoadStatus, error: null, apply: IDLE, removal: IDLE, action: IDLE };
  return createStore<ComponentsState>()((set, get) => {
    const reload = coalescer(deps.eventDebounceMs ?? 150, () => {
      const id = get().clusterId;
      if (id) void get().load(id);
    });
    const mutate = async (
      kind: 'apply' | 'removal' | 'action',
      name: string,
      call: (id: string) => Promise<CommandView>,
      action: ComponentAction | null = null,
    ): Promise<CommandView | null> => {
      const id = get().clusterId;
      if (!id) return null;
      set({ [kind]: { pending: true, name, action, error: null, command: null } } as Partial<ComponentsState>);
      try {
        const command = await call(id);
        if (get().clusterId !== id) return command;
        set({ [kind]: { pending: false, name, action, error: null, command } } as Partial<ComponentsState>);
        void get().load(id);
        return command;
      } catch (e) {
        if (get().clusterId === id)
          set({ [kind]: { pending: false, name, action, error: toApiError(e), command: null } } as Partial<ComponentsState>);
        return null;
      }
    };
    return {
      ...initial,

      async load(clusterId) {
        if (get().clusterId !== clusterId) {
          reload.cancel();
          set({ ...initial, clusterId, status: 'loading' });
        } else if (get().status !== 'ready') set({ status: 'loading' });
        try {
          const view = await client.listComponents(clusterId);
          if (get().clusterId !== clusterId) return;
          set({ view, status: 'ready', error: null });
        } catch (e) {
          if (get().clusterId !== clusterId) return;
          set({ status: get().view ? 'ready' : 'error', error: toApiError(e) });
        }
      },

      applyComponent(name, spec, approvalId) {
        return mutate('apply', name, (id) => client.applyComponent(id, name, spec, approvalId));
      },

      removeComponent(name, approvalId) {
        return mutate('removal', name, (id) => client.deleteComponent(id, name, approvalId));
      },

      runAction(name, action, approvalId) {
        return mutate('action', name, (id) => client.componentAction(id, name, action, approvalId), action);
      },

      clearApply() {
        set({ apply: IDLE });
      },

      clearRemoval() {
        set({ removal: IDLE });
      },

      clearAction() {
        set({ action: IDLE });
      },

      handleEvent(event) {
        const id = get().clusterId;
        // command.changed: the desired state may have changed; cluster.changed: the agent reported what it observes.
        if (id && (event.type === 'command.changed' || event.type === 'cluster.changed') && eventCluster(event) === id) reload.trigger();
      },

      startLive() {
        return client.onEvent((event) => get().handleEvent(event));
      },

      reset() {
        reload.cancel();
        set({ ...initial });
      },
    };
  });
}

/** How what the agent observes compares with what was signed. */
export type Drift = 'unknown' | 'in_sync' | 'differs' | 'absent' | 'unexpected';

export interface ComponentRow {
  name: string;
  /** The signed desired spec; null for a component found in the cluster but not desired. */
  spec: ManagedComponentSpec | null;
  observed: ObservedComponent | null;
  drift: Drift;
  /** The desired fields whose observed value differs. */
  differences: string[];
}

const SPEC_FIELDS = ['component', 'version', 'replicas', 'artifacts', 'resources', 'config'] as const;

/** Canonical text of a value (object keys sorted), to compare specs field by field. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

export function specDifferences(desired: ManagedComponentSpec, observed: unknown): string[] {
  const o = (typeof observed === 'object' && observed !== null ? observed : {}) as Record<string, unknown>;
  const d = desired as unknown as Record<string, unknown>;
  return SPEC_FIELDS.filter((f) => (d[f] !== undefined || o[f] !== undefined) && canonical(d[f]) !== canonical(o[f]));
}

/** Desired and observed components side by side, sorted by name (stable reference per view). */
export function componentRows(view: ComponentsView): ComponentRow[] {
  const desired = view.desired ?? {};
  const observed = view.observed ?? null;
  const names = new Set([...Object.keys(desired), ...Object.keys(observed ?? {})]);
  return [...names]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => {
      const spec = desired[name] ?? null;
      const seen = observed ? (observed[name] ?? null) : null;
      if (!observed) return { name, spec, observed: null, drift: 'unknown' as const, differences: [] };
      if (!spec) return { name, spec, observed: seen, drift: 'unexpected' as const, differences: [] };
      if (!seen) return { name, spec, observed: null, drift: 'absent' as const, differences: [] };
      const differences = specDifferences(spec, seen.spec);
      return { name, spec, observed: seen, drift: differences.length > 0 ? ('differs' as const) : ('in_sync' as const), differences };
    });
}

const rowsByView = new WeakMap<ComponentsView, ComponentRow[]>();

export function selectComponentRows(s: ComponentsState): ComponentRow[] {
  const view = s.view;
  if (!view) return EMPTY_ROWS;
  let rows = rowsByView.get(view);
  if (!rows) {
    rows = componentRows(view);
    rowsByView.set(view, rows);
  }
  return rows;
}
const EMPTY_ROWS: ComponentRow[] = [];
