// The open cluster page: the cluster (state and agent), its latest inventory snapshot, CoreDNS as the newest
// snapshot that looked for it read it, and the inventory actions (re-read with the import identity, or ask the
// agent). Live: `cluster.changed` and `agent.seen` for this cluster reload it (coalesced).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiEvent } from '../../../../preload/api';
import { toApiError, type ApiClient, type ApiError } from '../../api/client';
import type { AgentStatus, ClusterView, CommandView, InventorySnapshot, RegistrationResult } from '../../api/types';
import { corednsAfter, type CorednsReading } from './coredns';
import type { LoadStatus } from '../clusters/store';
import { coalescer, eventCluster } from '../../stores/live';

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

/** Whether to ask for a cluster's inventory. A hosts cluster never has one. A Kubernetes cluster has one once it
 * is registered (the import snapshot) or its agent reported; a pending cluster (no agent seen yet) that is not
 * registered has none, unless this console read one. Unknown view (or an older manager's, without
 * `registered_at`): ask. */
export function mayHaveInventory(view: ClusterView | null, knownToHaveOne: boolean): boolean {
  if (!view) return true;
  if (view.kind === 'hosts') return false;
  return knownToHaveOne || view.state !== 'pending' || view.registered_at !== null;
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
  /** CoreDNS from the newest snapshot seen that looked for it (an agent's may not: see lookedForCoredns). */
  coredns: CorednsReading | null;

  /** Shows the page of this cluster (reloads it when it is already the one shown). */
  open(id: string): Promise<void>;
  loadCluster(): Promise<void>;
  loadInventory(): Promise<void>;
  refreshInventory(): Promise<boolean>;
  requestInventoryReport(): Promise<CommandView | null>;
  clearInventoryAction(): void;
  /** This console registered a cluster: it has an inventory from now on, the registration's for a start. */
  showRegistration(result: RegistrationResult): void;
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
    coredns: null,
  };
  // What this console learnt of clusters during the session: which have an inventory (registered here, or one
  // was read), and CoreDNS as last read.
  const withInventory = new Set<string>();
  const corednsSeen = new Map<string, CorednsReading>();

  return createStore<ClusterPageState>()((set, get) => {
    /** The cluster first: whether to ask for its inventory depends on its view. */
    const reload = async (): Promise<void> => {
      const id = get().clusterId;
      await get().loadCluster();
      if (get().clusterId === id) await get().loadInventory();
    };
    const reloadCluster = coalescer(debounceMs, () => void get().loadCluster());
    const reloadAll = coalescer(debounceMs, () => void reload());
    const showSnapshot = (id: string, inventory: InventorySnapshot): Partial<ClusterPageState> => {
      const coredns = corednsAfter(get().coredns, inventory);
      withInventory.add(id);
      if (coredns) corednsSeen.set(id, coredns);
      return { inventory, inventoryStatus: 'ready', inventoryError: null, coredns };
    };

    /** Runs an inventory action on the open cluster; `current`: that cluster is still the one open. */
    const inventoryAction = async <T>(
      kind: 'refresh' | 'report',
      call: (id: string) => Promise<T>,
    ): Promise<{ id: string; value: T; current: boolean } | null> => {
      const id = get().clusterId;
      if (!id) return null;
      set({ inventoryAction: { kind, pending: true, error: null, command: null } });
      try {
        const value = await call(id);
        return { id, value, current: get().clusterId === id };
      } catch (e) {
        if (get().clusterId === id) set({ inventoryAction: { kind, pending: false, error: toApiError(e), command: null } });
        return null;
      }
    };

    return {
      ...initial,

      async open(id) {
        if (get().clusterId !== id) {
          reloadCluster.cancel();
          reloadAll.cancel();
          set({ ...initial, clusterId: id, status: 'loading', inventoryStatus: 'loading', coredns: corednsSeen.get(id) ?? null });
        }
        await reload();
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
        if (!mayHaveInventory(get().cluster, withInventory.has(id))) {
          set({ inventory: null, inventoryStatus: 'missing', inventoryError: null });
          return;
        }
        if (get().inventoryStatus !== 'ready') set({ inventoryStatus: 'loading' });
        try {
          const inventory = await client.getInventory(id);
          if (get().clusterId !== id) return;
          set(showSnapshot(id, inventory));
        } catch (e) {
          if (get().clusterId !== id) return;
          const error = toApiError(e);
          if (error.code === 'not_found') set({ inventory: null, inventoryStatus: 'missing', inventoryError: null });
          else set({ inventoryStatus: get().inventory ? 'ready' : 'error', inventoryError: error });
        }
      },

      async refreshInventory() {
        const done = await inventoryAction('refresh', (id) => client.refreshInventory(id));
        if (!done?.current) return false;
        set({ ...showSnapshot(done.id, done.value), inventoryAction: { ...NO_ACTION, kind: 'refresh' } });
        return true;
      },

      async requestInventoryReport() {
        const done = await inventoryAction('report', (id) => client.requestInventoryReport(id));
        if (done?.current) set({ inventoryAction: { kind: 'report', pending: false, error: null, command: done.value } });
        return done?.value ?? null;
      },

      clearInventoryAction() {
        set({ inventoryAction: NO_ACTION });
      },

      showRegistration(result) {
        const id = result.cluster_id;
        withInventory.add(id);
        if (get().clusterId !== id) return;
        set(showSnapshot(id, { cluster_id: id, taken_at: result.taken_at, source: 'import', inventory: result.inventory }));
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
        withInventory.clear();
        corednsSeen.clear();
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
