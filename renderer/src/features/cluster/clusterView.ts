// A view of the open cluster that one call loads and pushed events reload (a burst becomes one reload), with the
// writes its tab sends: each kept as a mutation (pending, or its error) under a name, and the view reloaded after.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { EventType } from '../../../../preload/api';
import type { ApiClient } from '../../api/client';
import { toApiError, type ApiError } from '../../api/client';
import type { LoadStatus } from '../clusters/store';
import { coalescer, eventCluster, type LiveDeps, type LiveStore } from '../../stores/live';
import { IDLE, mutation, type MutationState } from '../../stores/mutation';

export interface ClusterViewState<V, W extends string> extends LiveStore {
  clusterId: string | null;
  view: V | null;
  status: LoadStatus;
  error: ApiError | null;
  writes: Record<W, MutationState>;
  open(clusterId: string): Promise<void>;
  load(): Promise<void>;
  /** Runs a write on the open cluster, then reloads the view; its result, or null when it failed. */
  write<T>(name: W, call: (client: ApiClient, clusterId: string) => Promise<T>): Promise<T | null>;
  clearWrite(name: W): void;
}

export type ClusterViewStore<V, W extends string> = StoreApi<ClusterViewState<V, W>>;

export function createClusterViewStore<V, W extends string>(
  deps: LiveDeps,
  spec: { load: (client: ApiClient, clusterId: string) => Promise<V>; events: readonly EventType[]; writes: readonly W[] },
): ClusterViewStore<V, W> {
  const idleWrites = (): Record<W, MutationState> => Object.fromEntries(spec.writes.map((w) => [w, IDLE])) as Record<W, MutationState>;
  const initial = { clusterId: null, view: null, status: 'idle' as LoadStatus, error: null };
  return createStore<ClusterViewState<V, W>>()((set, get) => {
    const reload = coalescer(deps.eventDebounceMs ?? 300, () => void get().load());
    return {
      ...initial,
      writes: idleWrites(),

      async open(clusterId) {
        if (get().clusterId !== clusterId) {
          reload.cancel();
          set({ ...initial, writes: idleWrites(), clusterId });
        }
        await get().load();
      },

      async load() {
        const id = get().clusterId;
        if (!id) return;
        if (get().status !== 'ready') set({ status: 'loading' });
        try {
          const view = await spec.load(deps.client, id);
          if (get().clusterId === id) set({ view, status: 'ready', error: null });
        } catch (e) {
          if (get().clusterId === id) set({ status: get().view ? 'ready' : 'error', error: toApiError(e) });
        }
      },

      async write(name, call) {
        const id = get().clusterId;
        if (!id) return null;
        const done = await mutation<ClusterViewState<V, W>, unknown>(
          set,
          (m) => ({ writes: { ...get().writes, [name]: m } }),
          () => call(deps.client, id),
        );
        if (get().clusterId === id) void get().load();
        return done ? (done.value as never) : null;
      },

      clearWrite(name) {
        set({ writes: { ...get().writes, [name]: IDLE } });
      },

      handleEvent(event) {
        const id = get().clusterId;
        if (id && spec.events.includes(event.type) && eventCluster(event) === id) reload.trigger();
      },

      startLive() {
        return deps.client.onEvent((event) => get().handleEvent(event));
      },

      reset() {
        reload.cancel();
        set({ ...initial, writes: idleWrites() });
      },
    };
  });
}
