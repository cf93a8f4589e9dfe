// The Hosts tab of an open hosts cluster: its hosts with their facts and agents (reloaded on pushed host and
// command events), adding a host, and issuing a host's node agent identity (its key shown once, then dropped).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { HostIdentity, HostView } from '../../../../preload/api';
import { emptyList, loadClusterList, type ListState } from '../../stores/list';
import { coalescer, eventField, type LiveDeps, type LiveStore } from '../../stores/live';
import { IDLE, mutation, type MutationState } from '../../stores/mutation';

type HostMutation = MutationState & { hostId: string | null };

/** The host a mutation is about, while it runs or after it failed. */
const onHost = (m: MutationState, hostId: string): HostMutation => ({ ...m, hostId: m.pending || m.error ? hostId : null });

export interface HostsState extends ListState<HostView>, LiveStore {
  clusterId: string | null;
  adding: MutationState;
  /** The identity just issued, with the host it is for; cleared when the operator closes it. */
  identity: { hostId: string; value: HostIdentity } | null;
  issuing: HostMutation;
  reporting: HostMutation;
  removing: HostMutation;
  open(clusterId: string): Promise<void>;
  load(): Promise<void>;
  add(name: string, address: string): Promise<boolean>;
  /** `approvalId`: another admin's approval of a re-issue, where the cluster's profile wants four eyes. */
  issueIdentity(hostId: string, gatewayUrl: string, serverName?: string, approvalId?: string): Promise<boolean>;
  closeIdentity(): void;
  reportFacts(hostId: string): Promise<boolean>;
  /** `approvalId`: another admin's approval of deleting this host, where the cluster's profile wants four eyes. */
  remove(hostId: string, approvalId?: string): Promise<boolean>;
}

export type HostsStore = StoreApi<HostsState>;

export function createHostsStore(deps: LiveDeps): HostsStore {
  const api = deps.client;
  const initial = {
    clusterId: null,
    ...emptyList<HostView>(),
    adding: IDLE,
    identity: null,
    issuing: { ...IDLE, hostId: null },
    reporting: { ...IDLE, hostId: null },
    removing: { ...IDLE, hostId: null },
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

      load() {
        return loadClusterList(get, set, (id) => api.listHosts(id));
      },

      async add(name, address) {
        const id = get().clusterId;
        if (!id) return false;
        const done = await mutation(
          set,
          (adding) => ({ adding }),
          () => api.addHost(id, { name, address }),
        );
        if (done) await get().load();
        return done !== null;
      },

      async issueIdentity(hostId, gatewayUrl, serverName, approvalId) {
        set({ identity: null });
        const request = {
          gateway_url: gatewayUrl,
          ...(serverName ? { server_name: serverName } : {}),
          ...(approvalId ? { approval_id: approvalId } : {}),
        };
        const done = await mutation(
          set,
          (m) => ({ issuing: onHost(m, hostId) }),
          () => api.issueHostIdentity(hostId, request),
        );
        if (done) set({ identity: { hostId, value: done.value } });
        return done !== null;
      },

      closeIdentity() {
        set({ identity: null });
      },

      async reportFacts(hostId) {
        const done = await mutation(
          set,
          (m) => ({ reporting: onHost(m, hostId) }),
          () => api.requestFactsReport(hostId),
        );
        return done !== null;
      },

      async remove(hostId, approvalId) {
        const done = await mutation(
          set,
          (m) => ({ removing: onHost(m, hostId) }),
          () => api.removeHost(hostId, approvalId),
        );
        if (done) await get().load();
        return done !== null;
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
