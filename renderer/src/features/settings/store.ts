// Console-wide settings for administrators: the remote audit target (syslog) and its test, the DNS servers the
// preflight checks resolve with, the internal mirror and the CAs trusted for service endpoints; and the
// catalog of install profiles with their rules (any role reads it).
import { createStore, type StoreApi } from 'zustand/vanilla';
import { toApiError, type ApiClient, type ApiError } from '../../api/client';
import type {
  DnsSettings,
  EndpointTrust,
  MirrorSettings,
  ProfileCatalog,
  SyslogSettings,
  SyslogTarget,
  SyslogTestResult,
} from '../../api/types';
import type { LoadStatus } from '../clusters/store';
import { IDLE, mutation, type MutationState } from '../../stores/mutation';

/** One settings resource: its value, loading, and the last save. */
export interface SettingSlot<T> {
  value: T | null;
  status: LoadStatus;
  error: ApiError | null;
  save: MutationState;
}

export interface ConsoleSettingsState {
  syslog: SettingSlot<SyslogSettings>;
  syslogTest: MutationState & { result: SyslogTestResult | null };
  dns: SettingSlot<DnsSettings>;
  mirror: SettingSlot<MirrorSettings>;
  endpointTrust: SettingSlot<EndpointTrust>;
  profiles: SettingSlot<ProfileCatalog>;
  loadSyslog(): Promise<void>;
  saveSyslog(target: SyslogTarget): Promise<boolean>;
  clearSyslog(): Promise<boolean>;
  testSyslog(): Promise<SyslogTestResult | null>;
  loadDns(): Promise<void>;
  saveDns(servers: string[]): Promise<boolean>;
  loadMirror(): Promise<void>;
  saveMirror(input: { url: string; ca_pem: string | null }): Promise<boolean>;
  loadEndpointTrust(): Promise<void>;
  /** An empty bundle clears the list. */
  saveEndpointTrust(caPem: string): Promise<boolean>;
  clearEndpointTrustError(): void;
  /** Loads the catalog once; later calls keep what is there. */
  loadProfiles(): Promise<void>;
  reset(): void;
}

export type ConsoleSettingsStore = StoreApi<ConsoleSettingsState>;

type SlotKey = 'syslog' | 'dns' | 'mirror' | 'endpointTrust' | 'profiles';

const slot = <T>(): SettingSlot<T> => ({ value: null, status: 'idle', error: null, save: IDLE });

export function createConsoleSettingsStore(deps: { client: ApiClient }): ConsoleSettingsStore {
  const { client } = deps;
  const initial = () => ({
    syslog: slot<SyslogSettings>(),
    syslogTest: { ...IDLE, result: null },
    dns: slot<DnsSettings>(),
    mirror: slot<MirrorSettings>(),
    endpointTrust: slot<EndpointTrust>(),
    profiles: slot<ProfileCatalog>(),
  });
  return createStore<ConsoleSettingsState>()((set, get) => {
    const patch = <K extends SlotKey>(key: K, p: Partial<ConsoleSettingsState[K]>): void =>
      set((s) => ({ [key]: { ...s[key], ...p } }) as Partial<ConsoleSettingsState>);

    const load = async <K extends SlotKey>(key: K, call: () => Promise<ConsoleSettingsState[K]['value']>): Promise<void> => {
      if (get()[key].status !== 'ready') patch(key, { status: 'loading' } as Partial<ConsoleSettingsState[K]>);
      try {
        const value = await call();
        patch(key, { value, status: 'ready', error: null } as Partial<ConsoleSettingsState[K]>);
      } catch (e) {
        patch(key, { status: get()[key].value ? 'ready' : 'error', error: toApiError(e) } as Partial<ConsoleSettingsState[K]>);
      }
    };

    const save = async <K extends SlotKey>(key: K, call: () => Promise<ConsoleSettingsState[K]['value']>): Promise<boolean> => {
      patch(key, { save: { pending: true, error: null } } as Partial<ConsoleSettingsState[K]>);
      try {
        const value = await call();
        patch(key, { value, status: 'ready', error: null, save: IDLE } as Partial<ConsoleSettingsState[K]>);
        return true;
      } catch (e) {
        patch(key, { save: { pending: false, error: toApiError(e) } } as Partial<ConsoleSettingsState[K]>);
        return false;
      }
    };

    return {
      ...initial(),
      loadSyslog: () => load('syslog', () => client.getSyslog()),
      // PUT answers the target alone; the forwarder's state comes with a read of the settings.
      saveSyslog: (target) =>
        save('syslog', async () => {
          await client.setSyslog(target);
          return client.getSyslog();
        }),
      clearSyslog: () =>
        save('syslog', async () => {
          await client.clearSyslog();
          return client.getSyslog();
        }),
      async testSyslog() {
        const done = await mutation(
          set,
          (m) => ({ syslogTest: { ...m, result: null } }),
          () => client.testSyslog(),
        );
        if (done) set({ syslogTest: { ...IDLE, result: done.value } });
        return done?.value ?? null;
      },
      loadDns: () => load('dns', () => client.getDns()),
      saveDns: (servers) => save('dns', () => client.setDns(servers)),
      loadMirror: () => load('mirror', () => client.getMirror()),
      saveMirror: (input) => save('mirror', () => client.setMirror(input)),
      loadEndpointTrust: () => load('endpointTrust', () => client.getEndpointTrust()),
      saveEndpointTrust: (caPem) => save('endpointTrust', () => client.setEndpointTrust(caPem)),
      clearEndpointTrustError: () => patch('endpointTrust', { save: IDLE }),
      async loadProfiles() {
        const { status } = get().profiles;
        if (status === 'ready' || status === 'loading') return;
        await load('profiles', () => client.listProfiles());
      },
      reset() {
        set(initial());
      },
    };
  });
}

/** DNS servers typed one per line or separated by commas / spaces. */
export function parseServerList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
