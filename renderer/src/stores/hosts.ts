// The Hosts tab of an open hosts cluster: its hosts with their facts and agents (reloaded on pushed host and
// command events), adding a host, and issuing a host's node agent identity (its key shown once, then dropped).
import { createStore, type StoreApi } from 'zustand/vanilla';
import { toApiError, type ApiClient, type ApiError } from '../api/client';
import { hostsApi } from '../api/hosts';
import type { HostIdentity, HostView } from '../../../preload/api';
import type { LoadStatus, MutationState } from './clusters';

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
  handleEvent(event: { type: string; data: unknown }): void;
  startLive(): () => void;
  reset(): void;
}

export type HostsStore = StoreApi<HostsState>;

const IDLE: MutationState = { pending: false, error: null };

export function createHostsStore(deps: { client: ApiClient }): HostsStore {
  const api = hostsApi(deps.client);
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
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Agents report often: coalesce a burst of events into one reload.
    const reloadSoon = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => void get().load(), 300);
    };
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
          const items = await api.list(id);
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
          await api.add(id, { name, address });
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
          const value = await api.issueIdentity(hostId, { gateway_url: gatewayUrl, ...(serverName ? { server_name: serverName } : {}) });
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
          await api.reportFacts(hostId);
          set({ reporting: { ...IDLE, hostId: null } });
          return true;
        } catch (e) {
          set({ reporting: { pending: false, error: toApiError(e), hostId } });
          return false;
        }
      },

      handleEvent(event) {
        const id = get().clusterId;
        const data = (event.data ?? {}) as { cluster_id?: string; host_id?: string; id?: string };
        if (!id) return;
        if (event.type === 'host.changed' && (data.cluster_id === id || get().items.some((h) => h.id === data.id))) reloadSoon();
        else if (event.type === 'command.changed' && data.cluster_id === id) reloadSoon();
      },

      startLive() {
        return deps.client.onEvent((event) => get().handleEvent(event));
      },

      reset() {
        clearTimeout(timer);
        set({ ...initial });
      },
    };
  });
}
