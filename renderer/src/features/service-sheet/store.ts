// The component sheet of one service: what its agents observed (reloaded when a host of the cluster reports or
// the service changes), a refresh that asks the hosts to report now, the host figures over a window, the journals
// (read again every few seconds while followed), the service's operations, audit rows and configuration versions.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AuditRow,
  EventType,
  OperationView,
  ServiceConfigVersion,
  ServiceLog,
  ServiceMetrics,
  ServiceSheet,
} from '../../../../preload/api';
import { toApiError, type ApiError } from '../../api/client';
import type { LoadStatus } from '../clusters/store';
import { itemsOf } from '../../stores/list';
import { coalescer, eventCluster, type LiveDeps, type LiveStore } from '../../stores/live';

/** How often followed journals are read again: each read is a signed, audited command per host. */
export const FOLLOW_INTERVAL_MS = 5_000;
export const LOG_LINES = 200;
export const METRICS_WINDOWS = [15, 60, 360, 1440] as const;

/** The events (of the contract's map) that move the sheet. */
const SHEET_EVENTS: readonly EventType[] = ['host.changed', 'service.changed', 'drift.changed'];
/** A plan's tasks move on as command.changed: the operation shown follows them. */
const OPERATION_EVENTS: readonly EventType[] = ['service.changed', 'backup.changed', 'command.changed'];

interface Part<T> {
  value: T | null;
  status: LoadStatus;
  error: ApiError | null;
}
const NOTHING = { value: null, status: 'idle', error: null } as const;

export interface ServiceSheetState extends LiveStore {
  clusterId: string | null;
  service: string | null;
  sheet: Part<ServiceSheet>;
  refreshing: boolean;
  metrics: Part<ServiceMetrics>;
  minutes: number;
  logs: Part<ServiceLog[]>;
  following: boolean;
  search: string;
  operations: Part<OperationView[]>;
  audit: Part<AuditRow[]>;
  versions: Part<ServiceConfigVersion[]>;
  open(clusterId: string, service: string): Promise<void>;
  load(): Promise<void>;
  /** Asks the hosts to report now (operators), else reads the sheet again. */
  refresh(askAgents: boolean): Promise<void>;
  loadMetrics(minutes?: number): Promise<void>;
  readLogs(): Promise<void>;
  follow(on: boolean): void;
  setSearch(search: string): void;
  loadOperations(): Promise<void>;
  loadAudit(): Promise<void>;
  loadVersions(): Promise<void>;
}

export type ServiceSheetStore = StoreApi<ServiceSheetState>;

type PartKey = 'sheet' | 'metrics' | 'logs' | 'operations' | 'audit' | 'versions';

export function createServiceSheetStore(deps: LiveDeps): ServiceSheetStore {
  const { client } = deps;
  const initial = {
    clusterId: null,
    service: null,
    sheet: NOTHING,
    refreshing: false,
    metrics: NOTHING,
    minutes: 60,
    logs: NOTHING,
    following: false,
    search: '',
    operations: NOTHING,
    audit: NOTHING,
    versions: NOTHING,
  };
  return createStore<ServiceSheetState>()((set, get) => {
    let followTimer: ReturnType<typeof setInterval> | null = null;
    const stopFollowing = (): void => {
      if (followTimer) clearInterval(followTimer);
      followTimer = null;
    };
    /** Loads one part for the open service; an answer for a service no longer open is dropped. */
    const part = async <K extends PartKey>(
      key: K,
      call: (clusterId: string, service: string) => Promise<NonNullable<ServiceSheetState[K]['value']>>,
    ): Promise<void> => {
      const { clusterId, service } = get();
      if (!clusterId || !service) return;
      const current = get()[key];
      if (current.status !== 'ready') set({ [key]: { ...current, status: 'loading' } } as Partial<ServiceSheetState>);
      try {
        const value = await call(clusterId, service);
        if (get().clusterId === clusterId && get().service === service)
          set({ [key]: { value, status: 'ready', error: null } } as Partial<ServiceSheetState>);
      } catch (e) {
        if (get().clusterId === clusterId && get().service === service)
          set({
            [key]: { ...get()[key], status: get()[key].value ? 'ready' : 'error', error: toApiError(e) },
          } as Partial<ServiceSheetState>);
      }
    };
    const reload = coalescer(deps.eventDebounceMs ?? 300, () => {
      void get().load();
      if (get().metrics.status !== 'idle') void get().loadMetrics();
    });
    const reloadOperations = coalescer(deps.eventDebounceMs ?? 300, () => {
      if (get().operations.status !== 'idle') void get().loadOperations();
      if (get().audit.status !== 'idle') void get().loadAudit();
      if (get().versions.status !== 'idle') void get().loadVersions();
    });
    return {
      ...initial,

      async open(clusterId, service) {
        if (get().clusterId !== clusterId || get().service !== service) {
          stopFollowing();
          reload.cancel();
          set({ ...initial, clusterId, service });
        }
        await get().load();
      },

      load: () => part('sheet', (id, s) => client.getServiceSheet(id, s)),

      async refresh(askAgents) {
        if (!askAgents) return get().load();
        set({ refreshing: true });
        try {
          await part('sheet', (id, s) => client.refreshServiceSheet(id, s));
          if (get().metrics.status !== 'idle') await get().loadMetrics();
        } finally {
          set({ refreshing: false });
        }
      },

      loadMetrics(minutes) {
        if (minutes !== undefined) set({ minutes });
        return part('metrics', (id, s) => client.serviceMetrics(id, s, get().minutes));
      },

      readLogs: () => part('logs', async (id, s) => itemsOf(await client.serviceLogs(id, s, LOG_LINES))),

      follow(on) {
        stopFollowing();
        set({ following: on });
        if (!on) return;
        void get().readLogs();
        followTimer = setInterval(() => {
          // One read at a time: a slow agent does not pile reads up.
          if (get().logs.status !== 'loading') void get().readLogs();
        }, FOLLOW_INTERVAL_MS);
      },

      setSearch: (search) => set({ search }),

      loadOperations: () => part('operations', async (id, s) => itemsOf(await client.serviceOperations(id, s, 50))),

      loadAudit: () => part('audit', async (id, s) => itemsOf(await client.listAudit({ cluster_id: id, target: s, limit: 200 }))),

      loadVersions: () => part('versions', async (id, s) => itemsOf(await client.serviceConfigVersions(id, s))),

      handleEvent(event) {
        const id = get().clusterId;
        if (!id || eventCluster(event) !== id) return;
        if (SHEET_EVENTS.includes(event.type)) reload.trigger();
        if (OPERATION_EVENTS.includes(event.type)) reloadOperations.trigger();
      },

      startLive() {
        return client.onEvent((event) => get().handleEvent(event));
      },

      reset() {
        stopFollowing();
        reload.cancel();
        reloadOperations.cancel();
        set(initial);
      },
    };
  });
}

/** The lines of the journals that hold the search text (case-insensitive), per host. */
export function searchLogs(logs: readonly ServiceLog[], search: string): { log: ServiceLog; lines: string[] }[] {
  const q = search.trim().toLowerCase();
  return logs.map((log) => {
    const lines = log.text.split('\n').filter((l) => l.length > 0);
    return { log, lines: q ? lines.filter((l) => l.toLowerCase().includes(q)) : lines };
  });
}
