// What the console knows about the manager it talks to (version, mode).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { VersionInfo } from '../../../preload/api';
import type { LiveState } from '../api/types';
import { toApiError, type ApiClient, type ApiError } from '../api/client';

export interface SystemState {
  version: VersionInfo | null;
  error: ApiError | null;
  transport: 'bridge' | 'http';
  /** State of the event stream. */
  live: LiveState;
  loadVersion(): Promise<void>;
}

export type SystemStore = StoreApi<SystemState>;

export function createSystemStore(deps: { client: ApiClient }): SystemStore {
  let inFlight: Promise<void> | null = null;
  const store = createStore<SystemState>()((set) => ({
    version: null,
    error: null,
    transport: deps.client.kind,
    live: deps.client.getLiveState(),
    loadVersion() {
      inFlight ??= (async () => {
        try {
          set({ version: await deps.client.version(), error: null });
        } catch (e) {
          set({ error: toApiError(e) });
        } finally {
          inFlight = null;
        }
      })();
      return inFlight;
    },
  }));
  deps.client.onLiveState((live) => store.setState({ live }));
  return store;
}
