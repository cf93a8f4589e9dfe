// The Checks screen: the latest preflight run of each cluster, read when its row is shown (the list is
// virtualised, so thousands of clusters do not mean thousands of requests), and running one on demand.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { toApiError, type ApiClient, type ApiError } from '../../api/client';
import type { PreflightRun } from '../../api/types';

export interface ClusterRunEntry {
  /** 'missing': the cluster has never been checked. */
  status: 'loading' | 'ready' | 'missing' | 'error';
  run: PreflightRun | null;
  error: ApiError | null;
  running: boolean;
}

export interface ChecksState {
  runs: Record<string, ClusterRunEntry>;
  /** Reads the latest run of a cluster unless it is already known (or being read). */
  ensure(clusterId: string): Promise<void>;
  load(clusterId: string): Promise<void>;
  run(clusterId: string): Promise<PreflightRun | null>;
  reset(): void;
}

export type ChecksStore = StoreApi<ChecksState>;

const EMPTY: ClusterRunEntry = { status: 'loading', run: null, error: null, running: false };

export function createChecksStore(deps: { client: ApiClient }): ChecksStore {
  const { client } = deps;
  return createStore<ChecksState>()((set, get) => {
    const patch = (id: string, p: Partial<ClusterRunEntry>): void =>
      set((s) => ({ runs: { ...s.runs, [id]: { ...(s.runs[id] ?? EMPTY), ...p } } }));
    return {
      runs: {},

      async ensure(clusterId) {
        if (get().runs[clusterId]) return;
        await get().load(clusterId);
      },

      async load(clusterId) {
        patch(clusterId, { status: get().runs[clusterId]?.run ? 'ready' : 'loading' });
        try {
          patch(clusterId, { status: 'ready', run: await client.latestPreflight(clusterId), error: null });
        } catch (e) {
          const error = toApiError(e);
          patch(clusterId, error.code === 'not_found' ? { status: 'missing', run: null, error: null } : { status: 'error', error });
        }
      },

      async run(clusterId) {
        patch(clusterId, { running: true, error: null });
        try {
          const run = await client.runPreflight(clusterId);
          patch(clusterId, { status: 'ready', run, running: false });
          return run;
        } catch (e) {
          patch(clusterId, { running: false, error: toApiError(e) });
          return null;
        }
      },

      reset() {
        set({ runs: {} });
      },
    };
  });
}
