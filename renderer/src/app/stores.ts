// The app's single instances of the client and the stores, and the hooks components use (always with a
// selector). Tests build their own instances with the factories of each feature (features/<domain>/).
import { useEffect, useMemo, useState } from 'react';
import { useStore, type StoreApi } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { createClient } from '../api/client';
import { createApprovalsStore } from '../features/approvals/store';
import { createAuditStore } from '../features/audit/store';
import { createCertificatesStore } from '../features/certificates/store';
import { createChecksStore } from '../features/checks/store';
import { createConsoleSettingsStore } from '../features/settings/store';
import { createMfaEnrolmentStore } from '../features/session/mfaEnrolmentStore';
import { createProfileStore } from '../features/profile/store';
import { createClusterPageStore } from '../features/cluster/clusterPage';
import { createClusterSetupStore } from '../features/cluster/clusterSetup';
import { createClustersStore } from '../features/clusters/store';
import { createCommandsStore } from '../features/commands/store';
import { createComponentsStore } from '../features/components/store';
import { createPaletteStore } from '../features/palette/store';
import { createReportsStore } from '../features/reports/store';
import { createMirrorStore } from '../features/mirror/store';
import { createUsersStore } from '../features/settings/usersStore';
import { createHostsStore } from '../features/hosts/store';
import { createServicesStore } from '../features/services/store';
import { createServiceSheetStore } from '../features/service-sheet/store';
import { createDriftStore, createServiceBackupsStore, createSupportStore } from '../features/hosts-care/store';
import { createTokensStore } from '../features/settings/tokensStore';
import { createRouterStore } from '../stores/router';
import { createSessionStore } from '../features/session/store';
import { createSystemStore } from '../stores/system';
import { createUiStore } from '../stores/ui';
import {
  formatDateTime,
  formatDateTimeLong,
  formatNumber,
  formatRelative,
  makeTranslator,
  translatePlural,
  type Locale,
  type PluralKey,
  type Translator,
} from '../i18n';
import { hashOf } from '../stores/router';

const hasWindow = typeof window !== 'undefined';

export const client = createClient();

export const uiStore = createUiStore({ languages: hasWindow ? navigator.languages : [] });

export const routerStore = createRouterStore({
  initialHash: hasWindow ? window.location.hash : '',
  writeHash: (hash) => {
    if (hasWindow && window.location.hash !== hash) window.location.hash = hash;
  },
});

export const sessionStore = createSessionStore({
  client,
  clearLaunchHash: () => {
    if (!hasWindow) return;
    const { pathname, search } = window.location;
    window.history.replaceState(null, '', `${pathname}${search}${hashOf(routerStore.getState().screen)}`);
  },
});

export const clustersStore = createClustersStore({ client });
export const systemStore = createSystemStore({ client });
export const clusterPageStore = createClusterPageStore({ client });
export const clusterSetupStore = createClusterSetupStore({
  client,
  onRegistered: (result) => clusterPageStore.getState().showRegistration(result),
});
export const componentsStore = createComponentsStore({ client });
/** The Commands screen (every cluster, or the one picked there). */
export const commandsStore = createCommandsStore({ client });
/** The Commands tab of the open cluster page. */
export const clusterCommandsStore = createCommandsStore({ client });
export const auditStore = createAuditStore({ client });
export const usersStore = createUsersStore({ client });
export const tokensStore = createTokensStore({ client });
export const reportsStore = createReportsStore({
  client,
  // The portable verifier (pure JS Ed25519) is loaded the first time a report is checked.
  verify: async (json, pem) => (await import('../../../preload/verify')).verifyReport(json, pem),
});
export const paletteStore = createPaletteStore();
/** The Hosts tab of the open hosts cluster. */
export const hostsStore = createHostsStore({ client });
/** The Services tab of the open hosts cluster. */
export const servicesStore = createServicesStore({ client });
export const serviceBackupsStore = createServiceBackupsStore({ client });
export const driftStore = createDriftStore({ client });
export const supportStore = createSupportStore({ client });
/** The component sheet of the open service. */
export const serviceSheetStore = createServiceSheetStore({ client });
/** The Profile tab of the open cluster (and the four-eyes flag the components tab needs). */
export const profileStore = createProfileStore({ client });
/** The Approvals screen. */
export const approvalsStore = createApprovalsStore({ client });
/** The approvals of the open cluster, for the pickers of its four-eyes operations. */
export const clusterApprovalsStore = createApprovalsStore({ client });
export const checksStore = createChecksStore({ client });
/** Every certificate the product issued: the Certificates screen and the shell's alert under 14 days. */
export const certificatesStore = createCertificatesStore({ client });
export const mfaEnrolmentStore = createMfaEnrolmentStore({ client });
export const consoleSettingsStore = createConsoleSettingsStore({ client });
/** The Mirror screen: contents, bundle imports (followed live), trusted release keys. */
export const mirrorStore = createMirrorStore({ client });

/** Forgets every operator's data (sign-out, or another operator signed in). */
export function resetDataStores(): void {
  clustersStore.getState().reset();
  clusterPageStore.getState().reset();
  clusterSetupStore.getState().reset();
  componentsStore.getState().reset();
  commandsStore.getState().reset();
  clusterCommandsStore.getState().reset();
  auditStore.getState().reset();
  usersStore.getState().reset();
  tokensStore.getState().close();
  reportsStore.getState().reset();
  paletteStore.getState().hide();
  profileStore.getState().reset();
  approvalsStore.getState().reset();
  clusterApprovalsStore.getState().reset();
  checksStore.getState().reset();
  certificatesStore.getState().reset();
  hostsStore.getState().reset();
  servicesStore.getState().reset();
  serviceBackupsStore.getState().reset();
  driftStore.getState().reset();
  supportStore.getState().reset();
  serviceSheetStore.getState().reset();
  mfaEnrolmentStore.getState().reset();
  consoleSettingsStore.getState().reset();
  mirrorStore.getState().reset();
}

/** Subscribes every store that follows pushed events; returns the unsubscribe function. */
export function startLiveStores(): () => void {
  const stops = [
    clustersStore.getState().startLive(),
    clusterPageStore.getState().startLive(),
    componentsStore.getState().startLive(),
    commandsStore.getState().startLive(),
    clusterCommandsStore.getState().startLive(),
    approvalsStore.getState().startLive(),
    clusterApprovalsStore.getState().startLive(),
    hostsStore.getState().startLive(),
    servicesStore.getState().startLive(),
    serviceBackupsStore.getState().startLive(),
    driftStore.getState().startLive(),
    supportStore.getState().startLive(),
    serviceSheetStore.getState().startLive(),
    mirrorStore.getState().startLive(),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/** A store's hook: one selector, or `.fields('a', 'b')` for several fields at once (re-rendering when one changes). */
function storeHook<S>(store: StoreApi<S>) {
  const use = <T>(selector: (s: S) => T): T => useStore(store, selector);
  use.fields = <K extends keyof S>(...keys: K[]): Pick<S, K> =>
    useStore(
      store,
      useShallow((s: S) => Object.fromEntries(keys.map((k) => [k, s[k]])) as Pick<S, K>),
    );
  return use;
}

export const useUi = storeHook(uiStore);
export const useSession = storeHook(sessionStore);
export const useClusters = storeHook(clustersStore);
export const useRouter = storeHook(routerStore);
export const useSystem = storeHook(systemStore);
export const useClusterPage = storeHook(clusterPageStore);
export const useClusterSetup = storeHook(clusterSetupStore);
export const useComponents = storeHook(componentsStore);
export const useCommands = storeHook(commandsStore);
export const useClusterCommands = storeHook(clusterCommandsStore);
export const useAudit = storeHook(auditStore);
export const useUsers = storeHook(usersStore);
export const useTokens = storeHook(tokensStore);
export const useReports = storeHook(reportsStore);
export const usePalette = storeHook(paletteStore);
export const useProfile = storeHook(profileStore);
export const useApprovals = storeHook(approvalsStore);
export const useClusterApprovals = storeHook(clusterApprovalsStore);
export const useHosts = storeHook(hostsStore);
export const useServices = storeHook(servicesStore);
export const useServiceBackups = storeHook(serviceBackupsStore);
export const useDrift = storeHook(driftStore);
export const useSupport = storeHook(supportStore);
export const useServiceSheet = storeHook(serviceSheetStore);
export const useChecks = storeHook(checksStore);
export const useCertificates = storeHook(certificatesStore);
export const useMfaEnrolment = storeHook(mfaEnrolmentStore);
export const useConsoleSettings = storeHook(consoleSettingsStore);
export const useMirror = storeHook(mirrorStore);

export function useLocale(): Locale {
  return useUi((s) => s.locale);
}

/** The current time, re-read every `everyMs` (relative times and the agent's silence, without asking the manager). */
export function useNow(everyMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export function useT(): Translator {
  const locale = useLocale();
  return useMemo(() => makeTranslator(locale), [locale]);
}

export interface Formatters {
  locale: Locale;
  number(value: number): string;
  dateTime(iso: string): string;
  dateTimeLong(iso: string): string;
  plural(base: PluralKey, count: number): string;
  relative(iso: string, now: number): string;
}

export function useFormat(): Formatters {
  const locale = useLocale();
  return useMemo(
    () => ({
      locale,
      number: (v: number) => formatNumber(locale, v),
      dateTime: (iso: string) => formatDateTime(locale, iso),
      dateTimeLong: (iso: string) => formatDateTimeLong(locale, iso),
      plural: (base: PluralKey, count: number) => translatePlural(locale, base, count),
      relative: (iso: string, now: number) => formatRelative(locale, iso, now),
    }),
    [locale],
  );
}
