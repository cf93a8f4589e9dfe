// The Mirror screen: what the internal mirror holds, the bundle imports (one running at a time, followed live
// by its progress events), and the release keys whose bundles the manager accepts.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ImportProgress, MirrorImportView, MirrorInventory, TrustedReleaseKey } from '../../../../preload/api';
import { toApiError, type ApiError } from '../../api/client';
import type { LoadStatus } from '../clusters/store';
import { coalescer, eventField, type LiveDeps, type LiveStore } from '../../stores/live';
import { IDLE, mutation, type MutationState as Mutation } from '../../stores/mutation';

export interface MirrorState extends LiveStore {
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
  /** `approvalId`: another admin's approval, where a profile in use wants four eyes. */
  trustKey(pem: string, label: string, approvalId?: string): Promise<boolean>;
  untrustKey(keyId: string): Promise<boolean>;
}

export type MirrorStore = StoreApi<MirrorState>;

export function createMirrorStore(deps: LiveDeps): MirrorStore {
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
    const changeKeys = async (call: () => Promise<unknown>): Promise<boolean> => {
      const done = await mutation(set, (keyChange) => ({ keyChange }), call);
      if (done) await get().loadKeys();
      return done !== null;
    };
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
        const done = await mutation(
          set,
          (starting) => ({ starting }),
          () => api.startMirrorImport(path),
        );
        if (done) {
          const started = done.value;
          set({ current: started, progress: started.progress, imports: [started, ...get().imports.filter((i) => i.id !== started.id)] });
        }
        return done !== null;
      },

      trustKey(pem, label, approvalId) {
        return changeKeys(() => api.trustReleaseKey(pem, label, approvalId));
      },

      untrustKey(keyId) {
        return changeKeys(() => api.untrustReleaseKey(keyId));
      },

      handleEvent(event) {
        const id = eventField(event, 'id');
        if (!id) return;
        if (event.type === 'mirror.import.progress') {
          const current = get().current;
          // A progress of another import (started elsewhere) becomes the one shown when none is.
          if (current && current.id !== id && current.state === 'running') return;
          const { id: _id, ...progress } = event.data;
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
