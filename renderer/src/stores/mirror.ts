// The Mirror screen: what the internal mirror holds, the bundle imports (one running at a time, followed live
// by its progress events), and the release keys whose bundles the manager accepts.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiEvent, ImportProgress, MirrorImportView, MirrorInventory, TrustedReleaseKey } from '../../../preload/api';
import { toApiError, type ApiClient, type ApiError } from '../api/client';
import type { LoadStatus } from './clusters';
import { coalescer, eventField } from './live';

interface Mutation {
  pending: boolean;
  error: ApiError | null;
}

export interface MirrorState {
  inventory: MirrorInventory | null;
  inventoryStatus: LoadStatus;
  inventoryError: ApiError | null;
  imports: MirrorImportView[];
  importsError: ApiError | null;
  /** The import started from this console (or the one running when the screen opened). */
  current: MirrorImportView | null;
  /** Its latest progress, from the manager's events. */
  progress: ImportProgress | null;
  starting: Mutation;
  keys: TrustedReleaseKey[];
  keysError: ApiError | null;
  keyChange: Mutation;

  load(): Promise<void>;
  loadInventory(): Promise<void>;
  loadImports(): Promise<void>;
  loadKeys(): Promise<void>;
  startImport(path: string): Promise<boolean>;
  trustKey(pem: string, label: string): Promise<boolean>;
  untrustKey(keyId: string): Promise<boolean>;
  handleEvent(event: ApiEvent): void;
  startLive(): () => void;
  reset(): void;
}

export type MirrorStore = StoreApi<MirrorState>;

const IDLE: Mutation = { pending: false, error: null };

export function createMirrorStore(deps: { client: ApiClient; eventDebounceMs?: number }): MirrorStore {
  const api = deps.client;
  const initial = {
    inventory: null,
    inventoryStatus: 'idle' as LoadStatus,
    inventoryError: null,
    imports: [] as MirrorImportView[],
    importsError: null,
    current: null,
    progress: null,
    starting: IDLE,
    keys: [] as TrustedReleaseKey[],
    keysError: null,
    keyChange: IDLE,
  };
  return createStore<MirrorState>()((set, get) => {
    // An import that ended changes both the list and what the mirror holds.
    const ended = coalescer(deps.eventDebounceMs ?? 150, () => {
      void get().loadImports();
      void get().loadInventory();
    });
    return {
      ...initial,

      async load() {
        await Promise.all([get().loadInventory(), get().loadImports(), get().loadKeys()]);
      },

      async loadInventory() {
        set({ inventoryStatus: get().inventory ? 'ready' : 'loading' });
        try {
          set({ inventory: await api.mirrorInventory(), inventoryStatus: 'ready', inventoryError: null });
        } catch (e) {
          set({ inventoryStatus: 'error', inventoryError: toApiError(e) });
        }
      },

      async loadImports() {
        try {
          const { items } = await api.mirrorImports();
          const current = get().current;
          const fresh = current ? (items.find((i) => i.id === current.id) ?? current) : (items.find((i) => i.state === 'running') ?? null);
          set({
            imports: items,
            importsError: null,
            current: fresh,
            progress: fresh?.state === 'running' ? (get().progress ?? fresh.progress) : get().progress,
          });
        } catch (e) {
          set({ importsError: toApiError(e) });
        }
      },

      async loadKeys() {
        try {
          set({ keys: (await api.releaseKeys()).keys, keysError: null });
        } catch (e) {
          set({ keysError: toApiError(e) });
        }
      },

      async startImport(path) {
        if (get().starting.pending) return false;
        set({ starting: { pending: true, error: null } });
        try {
          const started = await api.startMirrorImport(path);
          set({
            current: started,
            progress: started.progress,
            starting: IDLE,
            imports: [started, ...get().imports.filter((i) => i.id !== started.id)],
          });
          return true;
        } catch (e) {
          set({ starting: { pending: false, error: toApiError(e) } });
          return false;
        }
      },

      async trustKey(pem, label) {
        set({ keyChange: { pending: true, error: null } });
        try {
          await api.trustReleaseKey(pem, label);
          set({ keyChange: IDLE });
          await get().loadKeys();
          return true;
        } catch (e) {
          set({ keyChange: { pending: false, error: toApiError(e) } });
          return false;
        }
      },

      async untrustKey(keyId) {
        set({ keyChange: { pending: true, error: null } });
        try {
          await api.untrustReleaseKey(keyId);
          set({ keyChange: IDLE });
          await get().loadKeys();
          return true;
        } catch (e) {
          set({ keyChange: { pending: false, error: toApiError(e) } });
          return false;
        }
      },

      handleEvent(event) {
        const id = eventField(event, 'id');
        if (!id) return;
        if (event.type === 'mirror.import.progress') {
          const current = get().current;
          // A progress of another import (started elsewhere) becomes the one shown when none is.
          if (current && current.id !== id && current.state === 'running') return;
          const { id: _id, ...progress } = event.data as ImportProgress & { id: string };
          set({ progress });
          if (!current || current.id !== id) ended.trigger();
        } else if (event.type === 'mirror.import.changed') ended.trigger();
      },

      startLive() {
        return deps.client.onEvent((event) => get().handleEvent(event));
      },

      reset() {
        ended.cancel();
        set({ ...initial });
      },
    };
  });
}
