// The Services tab of an open hosts cluster: the catalog services installed on its hosts (version, state,
// hosts, latest checks, newest operation with its plans task by task), the catalog the install form offers,
// installing a service and its actions. Live: `service.changed` and `command.changed` (plans report task by
// task) of this cluster reload the list; a burst becomes one reload.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  CatalogServiceSummary,
  OperationView,
  ServiceAction,
  ServiceInstall,
  ServiceView,
  UpgradeAnswer,
} from '../../../../preload/api';
import { toApiError, type ApiError } from '../../api/client';
import type { LoadStatus } from '../clusters/store';
import { emptyList, loadClusterList, type ListState } from '../../stores/list';
import { coalescer, eventCluster, type LiveDeps, type LiveStore } from '../../stores/live';
import { IDLE as NO_MUTATION, type MutationState } from '../../stores/mutation';

/** The actions of an installed service, in the order the tab offers them. */
export const SERVICE_ACTIONS: readonly ServiceAction[] = ['check', 'functional_test', 'start', 'stop', 'restart', 'uninstall'];
/** The actions asked for through a confirmation (they interrupt or remove the service). */
export const DISRUPTIVE_ACTIONS: readonly ServiceAction[] = ['stop', 'restart', 'uninstall'];

export interface ServiceMutation extends MutationState {
  /** The service the mutation is about. */
  service: string | null;
  /** For actions: which one. */
  action: ServiceAction | null;
}

export interface ServicesState extends ListState<ServiceView>, LiveStore {
  clusterId: string | null;
  /** The catalog's services (read once; `catalogValid` false: the manager's catalog is invalid, nothing offered). */
  catalog: CatalogServiceSummary[];
  catalogValid: boolean;
  catalogStatus: LoadStatus;
  catalogError: ApiError | null;
  installing: ServiceMutation;
  acting: ServiceMutation;
  /** What the catalog says of the upgrade last asked about (Upgrade panel). */
  upgradeCheck: { service: string; to: string; answer: UpgradeAnswer | null; error: ApiError | null } | null;

  open(clusterId: string): Promise<void>;
  load(): Promise<void>;
  loadCatalog(): Promise<void>;
  install(request: ServiceInstall): Promise<OperationView | null>;
  runAction(service: string, action: ServiceAction, approvalId?: string): Promise<OperationView | null>;
  clearInstall(): void;
  clearAction(): void;
  checkUpgrade(service: string, to: string): Promise<void>;
  upgrade(service: string, version: string): Promise<OperationView | null>;
  rollback(service: string): Promise<OperationView | null>;
  /** The restore a refused rollback offers: the backup the upgrade took first, its version and data. */
  restoreBackup(service: string, setId: string): Promise<OperationView | null>;
}

export type ServicesStore = StoreApi<ServicesState>;

const IDLE: ServiceMutation = { ...NO_MUTATION, service: null, action: null };

export function createServicesStore(deps: LiveDeps): ServicesStore {
  const api = deps.client;
  const initial = {
    clusterId: null,
    ...emptyList<ServiceView>(),
    installing: IDLE,
    acting: IDLE,
    upgradeCheck: null,
  };
  const noCatalog = { catalog: [], catalogValid: true, catalogStatus: 'idle' as LoadStatus, catalogError: null };
  return createStore<ServicesState>()((set, get) => {
    const reload = coalescer(deps.eventDebounceMs ?? 300, () => void get().load());
    /** Shows the operation just started on its service at once (the reload that follows brings the rest). */
    const showOperation = (op: OperationView): void =>
      set((s) => ({ items: s.items.map((v) => (v.service === op.service ? { ...v, operation: op } : v)) }));
    const mutate = async (
      kind: 'installing' | 'acting',
      what: { service: string; action: ServiceAction | null },
      call: (clusterId: string) => Promise<OperationView>,
    ): Promise<OperationView | null> => {
      const id = get().clusterId;
      if (!id) return null;
      set({ [kind]: { pending: true, error: null, ...what } });
      try {
        const op = await call(id);
        if (get().clusterId !== id) return op;
        set({ [kind]: { ...IDLE, ...what } });
        showOperation(op);
        void get().load();
        return op;
      } catch (e) {
        if (get().clusterId === id) set({ [kind]: { pending: false, error: toApiError(e), ...what } });
        return null;
      }
    };
    return {
      ...initial,
      ...noCatalog,

      async open(clusterId) {
        if (get().clusterId !== clusterId) {
          reload.cancel();
          set({ ...initial, clusterId });
        }
        await Promise.all([get().load(), get().catalogStatus === 'ready' ? null : get().loadCatalog()]);
      },

      load() {
        return loadClusterList(get, set, (id) => api.listServices(id));
      },

      async loadCatalog() {
        set({ catalogStatus: 'loading' });
        try {
          const list = await api.listCatalog();
          set({ catalog: list.services, catalogValid: list.valid, catalogStatus: 'ready', catalogError: null });
        } catch (e) {
          set({ catalogStatus: 'error', catalogError: toApiError(e) });
        }
      },

      install(request) {
        return mutate('installing', { service: request.service, action: null }, (id) => api.installService(id, request));
      },

      runAction(service, action, approvalId) {
        return mutate('acting', { service, action }, (id) => api.serviceAction(id, service, action, approvalId));
      },

      clearInstall() {
        set({ installing: IDLE });
      },

      clearAction() {
        set({ acting: IDLE });
      },

      async checkUpgrade(service, to) {
        const id = get().clusterId;
        if (!id) return;
        set({ upgradeCheck: { service, to, answer: null, error: null } });
        try {
          const answer = await api.upgradeInfo(id, service, to);
          if (get().clusterId === id) set({ upgradeCheck: { service, to, answer, error: null } });
        } catch (e) {
          if (get().clusterId === id) set({ upgradeCheck: { service, to, answer: null, error: toApiError(e) } });
        }
      },

      upgrade(service, version) {
        return mutate('acting', { service, action: null }, (id) => api.upgradeService(id, service, version));
      },

      rollback(service) {
        return mutate('acting', { service, action: null }, (id) => api.rollbackService(id, service));
      },

      restoreBackup(service, setId) {
        return mutate('acting', { service, action: null }, (id) => api.restoreServiceBackup(id, setId, service));
      },

      handleEvent(event) {
        const id = get().clusterId;
        if (!id || eventCluster(event) !== id) return;
        // An operation changed, or one of its plans reported a task.
        if (event.type === 'service.changed' || event.type === 'command.changed') reload.trigger();
      },

      startLive() {
        return api.onEvent((event) => get().handleEvent(event));
      },

      reset() {
        reload.cancel();
        set({ ...initial, ...noCatalog });
      },
    };
  });
}

/** What the install form sends: the hosts checked, in the cluster's order (the first runs the readiness and
 * functional test), and the approval only when one was picked. */
export function installRequest(form: {
  service: string;
  version: string;
  hostOrder: readonly string[];
  checked: ReadonlySet<string>;
  approvalId: string;
}): ServiceInstall {
  const hosts = form.hostOrder.filter((id) => form.checked.has(id));
  return {
    service: form.service,
    version: form.version,
    hosts,
    ...(form.approvalId ? { approval_id: form.approvalId } : {}),
  };
}

/** The service whose operation the tab shows: the one picked (null: none), or while nothing was picked (or the
 * one picked is gone), the first with an operation running. */
export function shownOperationService(items: readonly ServiceView[], picked: string | null | undefined): ServiceView | null {
  if (picked === null) return null;
  const chosen = picked === undefined ? undefined : items.find((s) => s.service === picked && s.operation);
  return chosen ?? items.find((s) => s.operation?.state === 'running') ?? null;
}
