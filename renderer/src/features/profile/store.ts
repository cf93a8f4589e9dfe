// The Profile tab of the open cluster: its profile with each rule evaluated now, changing the profile (admin)
// and the FQDN and address its DNS and TLS rules check (operator), the latest preflight run and running one,
// and the backup sets with "Back up now".
import { createStore, type StoreApi } from 'zustand/vanilla';
import { toApiError, type ApiClient, type ApiError } from '../../api/client';
import type { Cluster } from '../../../../preload/api';
import type { BackupSet, PreflightRun, ProfileName, ProfileView } from '../../api/types';
import type { LoadStatus } from '../clusters/store';
import { IDLE, type MutationState } from '../../stores/mutation';

/** 'missing': no preflight run yet (404 not_found). */
export type RunStatus = LoadStatus | 'missing';

export interface ProfileState {
  clusterId: string | null;
  view: ProfileView | null;
  status: LoadStatus;
  error: ApiError | null;
  change: MutationState;
  endpoint: MutationState;
  run: PreflightRun | null;
  runStatus: RunStatus;
  runError: ApiError | null;
  running: MutationState;
  backups: BackupSet[];
  backupsStatus: LoadStatus;
  backupsError: ApiError | null;
  backingUp: MutationState;
  restoring: MutationState & { done: string | null };

  open(clusterId: string): Promise<void>;
  /** Only the profile (the components tab needs its four-eyes flag). */
  bind(clusterId: string): Promise<void>;
  loadProfile(): Promise<void>;
  loadRun(): Promise<void>;
  loadBackups(): Promise<void>;
  setProfile(profile: ProfileName, approvalId?: string): Promise<boolean>;
  /** PATCH of the cluster's FQDN and address (null clears one); the rules are evaluated again after it. */
  setEndpoint(endpoint: { fqdn: string | null; address: string | null }): Promise<Cluster | null>;
  clearEndpointError(): void;
  runChecks(): Promise<PreflightRun | null>;
  backUpNow(): Promise<BackupSet | null>;
  /** Restores one component from a set; `done` names the command queued. */
  restore(setId: string, service: string, approvalId?: string): Promise<boolean>;
  reset(): void;
}

export type ProfileStore = StoreApi<ProfileState>;

export function createProfileStore(deps: { client: ApiClient }): ProfileStore {
  const { client } = deps;
  const initial = {
    clusterId: null,
    view: null,
    status: 'idle' as LoadStatus,
    error: null,
    change: IDLE,
    endpoint: IDLE,
    run: null,
    runStatus: 'idle' as RunStatus,
    runError: null,
    running: IDLE,
    restoring: { ...IDLE, done: null },
    backups: [] as BackupSet[],
    backupsStatus: 'idle' as LoadStatus,
    backupsError: null,
    backingUp: IDLE,
  };

  return createStore<ProfileState>()((set, get) => {
    /** Runs `call` for the open cluster; drops the answer when another cluster was opened meanwhile. */
    const forOpen = async <T>(
      call: (id: string) => Promise<T>,
      done: (value: T) => void,
      failed: (e: ApiError) => void,
    ): Promise<T | null> => {
      const id = get().clusterId;
      if (!id) return null;
      try {
        const value = await call(id);
        if (get().clusterId === id) done(value);
        return value;
      } catch (e) {
        if (get().clusterId === id) failed(toApiError(e));
        return null;
      }
    };

    return {
      ...initial,

      async open(clusterId) {
        if (get().clusterId !== clusterId)
          set({ ...initial, clusterId, status: 'loading', runStatus: 'loading', backupsStatus: 'loading' });
        await Promise.all([get().loadProfile(), get().loadRun(), get().loadBackups()]);
      },

      async bind(clusterId) {
        if (get().clusterId !== clusterId) set({ ...initial, clusterId, status: 'loading' });
        await get().loadProfile();
      },

      async loadProfile() {
        await forOpen(
          (id) => client.getProfile(id),
          (view) => set({ view, status: 'ready', error: null }),
          (error) => set({ status: get().view ? 'ready' : 'error', error }),
        );
      },

      async loadRun() {
        await forOpen(
          (id) => client.latestPreflight(id),
          (run) => set({ run, runStatus: 'ready', runError: null }),
          (error) =>
            error.code === 'not_found'
              ? set({ run: null, runStatus: 'missing', runError: null })
              : set({ runStatus: get().run ? 'ready' : 'error', runError: error }),
        );
      },

      async loadBackups() {
        await forOpen(
          (id) => client.listBackups(id),
          ({ items }) => set({ backups: sortNewestFirst(Array.isArray(items) ? items : []), backupsStatus: 'ready', backupsError: null }),
          (error) => set({ backupsStatus: get().backups.length > 0 ? 'ready' : 'error', backupsError: error }),
        );
      },

      async setProfile(profile, approvalId) {
        set({ change: { pending: true, error: null } });
        const view = await forOpen(
          (id) => client.setProfile(id, profile, approvalId),
          (v) => set({ view: v, status: 'ready', error: null, change: IDLE }),
          (error) => set({ change: { pending: false, error } }),
        );
        return view !== null;
      },

      async setEndpoint(endpoint) {
        set({ endpoint: { pending: true, error: null } });
        const cluster = await forOpen(
          (id) => client.updateCluster(id, endpoint),
          () => set({ endpoint: IDLE }),
          (error) => set({ endpoint: { pending: false, error } }),
        );
        if (cluster) void get().loadProfile();
        return cluster;
      },

      clearEndpointError() {
        set({ endpoint: IDLE });
      },

      async runChecks() {
        set({ running: { pending: true, error: null } });
        const run = await forOpen(
          (id) => client.runPreflight(id),
          (r) => set({ run: r, runStatus: 'ready', runError: null, running: IDLE }),
          (error) => set({ running: { pending: false, error } }),
        );
        // The profile's rules are among the checks: what the run saw is what the profile shows now.
        if (run) void get().loadProfile();
        return run;
      },

      async backUpNow() {
        set({ backingUp: { pending: true, error: null } });
        return forOpen(
          (id) => client.createBackup(id),
          (b) =>
            set((s) => ({
              backups: sortNewestFirst([b, ...s.backups.filter((x) => x.id !== b.id)]),
              backupsStatus: 'ready',
              backingUp: IDLE,
            })),
          (error) => set({ backingUp: { pending: false, error } }),
        );
      },

      async restore(setId, service, approvalId) {
        set({ restoring: { pending: true, error: null, done: null } });
        const command = await forOpen(
          (id) => client.restoreBackup(id, setId, service, approvalId),
          (c) => set({ restoring: { pending: false, error: null, done: c.id } }),
          (error) => set({ restoring: { pending: false, error, done: null } }),
        );
        return command !== null;
      },

      reset() {
        set({ ...initial });
      },
    };
  });
}

function sortNewestFirst(items: BackupSet[]): BackupSet[] {
  return items.slice().sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}
