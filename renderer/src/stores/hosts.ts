// The Hosts tab of an open hosts cluster: its hosts with their facts and agents (reloaded on pushed host and
// command events), adding a host, and issuing a host's node agent identity (its key shown once, then dropped).
import { createStore, type StoreApi } from 'zustand/vanilla';
import { toApiError, type ApiClient, type ApiError } from '../api/client';
import type { ApiEvent, HostIdentity, HostView } from '../../../preload/api';
import type { LoadStatus, MutationState } from './clusters';
import { coalescer, eventField } from './live';

export interface HostsState {
  clusterId: string | null;
  items: HostView[];
  status: LoadStatus;
  error: ApiError | null;
  adding: MutationState;
  /** The identity just issued, with the host it is for; cleared when the operator closes it. */
  identity: { hostId: string; value: HostIdentity } | null;
  issuing: MutationState & { hostId: string | null };
  reporting: MutationState & { hostId: string | null };
  open(clusterId: string): Promise<void>;
  load(): Promise<void>;
  add(name: string, address: string): Promise<boolean>;
  issueIdentity(hostId: string, gatewayUrl: string, serverName?: string): Promise<boolean>;
  closeIdentity(): void;
  reportFacts(hostId: string): Promise<boolean>;
  handleEvent(event: ApiEvent): void;
  startLive(): () => void;
  reset(): void;
}

export type HostsStore = StoreApi<HostsState>;

const IDLE: MutationState = { pending: false, error: null };

export function createHostsStore(deps: { client: ApiClient; eventDebounceMs?: number }): HostsStore {
  const api = deps.client;
  const initial = {
    clusterId: null,
    items: [],
    status: 'idle' as LoadStatus,
    error: null,
    adding: IDLE,
    identity: null,
    issuing: { ...IDLE, hostId: null },
    reporting: { ...IDLE, hostId: null },
  };
  return createStore<HostsState>()((set, get) => {
    // Agents report often: a burst of events becomes one reload.
    const reload = coalescer(deps.eventDebounceMs ?? 300, () => void get().load());
    return {
      ...initial,

      async open(clusterId) {
        if (get().clusterId !== clusterId) set({ ...initial, clusterId });
        await get().load();
      },

      async load() {
        const id = get().clusterId;
        if (!id) return;
        if (get().status !== 'ready') set({ status: 'loading' });
        try {
          const { items } = await api.listHosts(id);
          if (get().clusterId === id) set({ items, status: 'ready', error: null });
        } catch (e) {
          if (get().clusterId === id) set({ status: get().items.length ? 'ready' : 'error', error: toApiError(e) });
        }
      },

      async add(name, address) {
        const id = get().clusterId;
        if (!id) return false;
        set({ adding: { pending: true, error: null } });
        try {
          await api.addHost(id, { name, address });
          set({ adding: IDLE });
          await get().load();
          return true;
        } catch (e) {
          set({ adding: { pending: false, error: toApiError(e) } });
          return false;
        }
      },

      async issueIdentity(hostId, gatewayUrl, serverName) {
        set({ issuing: { pending: true, error: null, hostId }, identity: null });
        try {
          const value = await api.issueHostIdentity(hostId, {
            gateway_url: gatewayUrl,
            ...(serverName ? { server_name: serverName } : {}),
          });
          set({ identity: { hostId, value }, issuing: { ...IDLE, hostId: null } });
          return true;
        } catch (e) {
          set({ issuing: { pending: false, error: toApiError(e), hostId } });
          return false;
        }
      },

      closeIdentity() {
        set({ identity: null });
      },

      async reportFacts(hostId) {
        set({ reporting: { pending: true, error: null, hostId } });
        try {
          await api.requestFactsReport(hostId);
          set({ reporting: { ...IDLE, hostId: null } });
          return true;
        } catch (e) {
          set({ reporting: { pending: false, error: toApiError(e), hostId } });
          return false;
        }
      },

      handleEvent(event) {
        const id = get().clusterId;
        if (!id) return;
        const cluster = eventField(event, 'cluster_id');
        const host = eventField(event, 'id');
        if (event.type === 'host.changed' && (cluster === id || get().items.some((h) => h.id === host))) reload.trigger();
        else if (event.type === 'command.changed' && cluster === id) reload.trigger();
      },

      startLive() {
        return deps.client.onEvent((event) => get().handleEvent(event));
      },

      reset() {
        reload.cancel();
        set({ ...initial });
      },
    };
  });
}
