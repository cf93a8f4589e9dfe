// The open cluster page: the cluster (state and agent), its latest inventory snapshot, and the inventory
// actions (re-read with the import identity, or ask the agent). Live: `cluster.changed` and `agent.seen` for
// this cluster reload it (coalesced).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiEvent } from '../../../preload/api';
import { toApiError, type ApiClient, type ApiError } from '../api/client';
import type { AgentStatus, ClusterView, CommandView, InventorySnapshot } from '../api/types';
import type { LoadStatus } from './clusters';
import { coalescer, eventCluster } from './live';

/** An agent silent for longer than this is offline (a long poll lasts at most 30 s; the manager uses 45 s). */
export const AGENT_SILENCE_MS = 45_000;

export type InventoryStatus = LoadStatus | 'missing';

export interface InventoryAction {
  kind: 'refresh' | 'report' | null;
  pending: boolean;
  error: ApiError | null;
  /** The inventory.report command sent to the agent. */
  command: CommandView | null;
}

export interface ClusterPageState {
  clusterId: string | null;
  cluster: ClusterView | null;
  status: LoadStatus;
  error: ApiError | null;
  inventory: InventorySnapshot | null;
  /** 'missing': the manager has no inventory yet (404 not_found). */
  inventoryStatus: InventoryStatus;
  inventoryError: ApiError | null;
  inventoryAction: InventoryAction;

  /** Shows the page of this cluster (reloads it when it is already the one shown). */
  open(id: string): Promise<void>;
  loadCluster(): Promise<void>;
  loadInventory(): Promise<void>;
  refreshInventory(): Promise<boolean>;
  requestInventoryReport(): Promise<CommandView | null>;
  clearInventoryAction(): void;
  handleEvent(event: ApiEvent): void;
  startLive(): () => void;
  reset(): void;
}

export type ClusterPageStore = StoreApi<ClusterPageState>;

const NO_ACTION: InventoryAction = { kind: null, pending: false, error: null, command: null };

export function createClusterPageStore(deps: { client: ApiClient; eventDebounceMs?: number }): ClusterPageStore {
  const { client } = deps;
  const debounceMs = deps.eventDebounceMs ?? 150;
  const initial = {
    clusterId: null,
    cluster: null,
    status: 'idle' as LoadStatus,
    error: null,
    inventory: null,
    inventoryStatus: 'idle' as InventoryStatus,
    inventoryError: null,
    inventoryAction: NO_ACTION,
  };

  return createStore<ClusterPageState>()((set, get) => {
    const reloadCluster = coalescer(debounceMs, () => void get().loadCluster());
    const reloadAll = coalescer(debounceMs, () => {
      void get().loadCluster();
      void get().loadInventory();
    });

    return {
      ...initial,

      async open(id) {
        if (get().clusterId !== id) {
          reloadCluster.cancel();
          reloadAll.cancel();
          set({ ...initial, clusterId: id, status: 'loading', inventoryStatus: 'loading' });
        }
        await Promise.all([get().loadCluster(), get().loadInventory()]);
      },

      async loadCluster() {
        const id = get().clusterId;
        if (!id) return;
        if (get().status !== 'ready') set({ status: 'loading' });
        try {
          const cluster = await client.getClusterView(id);
          if (get().clusterId !== id) return;
          set({ cluster, status: 'ready', error: null });
        } catch (e) {
          if (get().clusterId !== id) return;
          const error = toApiError(e);
          set({
            status: get().cluster && error.code !== 'not_found' ? 'ready' : 'error',
            error,
            ...(error.code === 'not_found' ? { cluster: null } : {}),
          });
        }
      },

      async loadInventory() {
        const id = get().clusterId;
        if (!id) return;
        if (get().inventoryStatus !== 'ready') set({ inventoryStatus: 'loading' });
        try {
          const inventory = await client.getInventory(id);
          if (get().clusterId !== id) return;
          set({ inventory, inventoryStatus: 'ready', inventoryError: null });
        } catch (e) {
          if (get().clusterId !== id) return;
          const error = toApiError(e);
          if (error.code === 'not_found') set({ inventory: null, inventoryStatus: 'missing', inventoryError: null });
          else set({ inventoryStatus: get().inventory ? 'ready' : 'error', inventoryError: error });
        }
      },

      async refreshInventory() {
        const id = get().clusterId;
        if (!id) return false;
        set({ inventoryAction: { kind: 'refresh', pending: true, error: null, command: null } });
        try {
          const inventory = await client.refreshInventory(id);
          if (get().clusterId !== id) return false;
          set({ inventory, inventoryStatus: 'ready', inventoryError: null, inventoryAction: { ...NO_ACTION, kind: 'refresh' } });
          return true;
        } catch (e) {
          if (get().clusterId === id) set({ inventoryAction: { kind: 'refresh', pending: false, error: toApiError(e), command: null } });
          return false;
        }
      },

      async requestInventoryReport() {
        const id = get().clusterId;
        if (!id) return null;
        set({ inventoryAction: { kind: 'report', pending: true, error: null, command: null } });
        try {
          const command = await client.requestInventoryReport(id);
          if (get().clusterId === id) set({ inventoryAction: { kind: 'report', pending: false, error: null, command } });
          return command;
        } catch (e) {
          if (get().clusterId === id) set({ inventoryAction: { kind: 'report', pending: false, error: toApiError(e), command: null } });
          return null;
        }
      },

      clearInventoryAction() {
        set({ inventoryAction: NO_ACTION });
      },

      handleEvent(event) {
        const id = get().clusterId;
        if (!id || eventCluster(event) !== id) return;
        if (event.type === 'cluster.changed') reloadAll.trigger();
        else if (event.type === 'agent.seen') reloadCluster.trigger();
      },

      startLive() {
        return client.onEvent((event) => get().handleEvent(event));
      },

      reset() {
        reloadCluster.cancel();
        reloadAll.cancel();
        set({ ...initial });
      },
    };
  });
}

export type AgentPresence = 'none' | 'connected' | 'offline' | 'revoked';

/** What to show of the agent at `now`: an agent whose last contact is older than the silence limit is offline
 * even before the next event (nothing is pushed when an agent goes quiet). */
export function agentPresence(cluster: Pick<ClusterView, 'state'> & { agent?: AgentStatus | undefined }, now: number): AgentPresence {
  if (cluster.state === 'revoked') return 'revoked';
  const a = cluster.agent;
  if (!a || !a.last_seen) return 'none';
  const seen = new Date(a.last_seen).getTime();
  if (a.connected && Number.isFinite(seen) && now - seen <= AGENT_SILENCE_MS) return 'connected';
  return 'offline';
}
