// The app's single instances of the client and the stores, and the hooks components use (always with a
// selector). Tests build their own instances with the factories in stores/.
import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { createClient } from '../api/client';
import { createApprovalsStore, type ApprovalsState } from '../stores/approvals';
import { createAuditStore, type AuditState } from '../stores/audit';
import { createChecksStore, type ChecksState } from '../stores/checks';
import { createConsoleSettingsStore, type ConsoleSettingsState } from '../stores/consoleSettings';
import { createMfaEnrolmentStore, type MfaEnrolmentState } from '../stores/mfaEnrolment';
import { createProfileStore, type ProfileState } from '../stores/profile';
import { createClusterPageStore, type ClusterPageState } from '../stores/clusterPage';
import { createClusterSetupStore, type ClusterSetupState } from '../stores/clusterSetup';
import { createClustersStore, type ClustersState } from '../stores/clusters';
import { createCommandsStore, type CommandsState } from '../stores/commands';
import { createComponentsStore, type ComponentsState } from '../stores/components';
import { createPaletteStore, type PaletteState } from '../stores/palette';
import { createReportsStore, type ReportsState } from '../stores/reports';
import { createUsersStore, type UsersState } from '../stores/users';
import { createTokensStore, type TokensState } from '../stores/tokens';
import { createRouterStore, type RouterState } from '../stores/router';
import { createSessionStore, type SessionState } from '../stores/session';
import { createSystemStore, type SystemState } from '../stores/system';
import { createUiStore, type UiState } from '../stores/ui';
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
export const clusterSetupStore = createClusterSetupStore({ client });
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
/** The Profile tab of the open cluster (and the four-eyes flag the components tab needs). */
export const profileStore = createProfileStore({ client });
/** The Approvals screen. */
export const approvalsStore = createApprovalsStore({ client });
/** The approvals of the open cluster, for the pickers of its four-eyes operations. */
export const clusterApprovalsStore = createApprovalsStore({ client });
export const checksStore = createChecksStore({ client });
export const mfaEnrolmentStore = createMfaEnrolmentStore({ client });
export const consoleSettingsStore = createConsoleSettingsStore({ client });

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
  mfaEnrolmentStore.getState().reset();
  consoleSettingsStore.getState().reset();
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
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

export const useUi = <T>(selector: (s: UiState) => T): T => useStore(uiStore, selector);
export const useSession = <T>(selector: (s: SessionState) => T): T => useStore(sessionStore, selector);
export const useClusters = <T>(selector: (s: ClustersState) => T): T => useStore(clustersStore, selector);
export const useRouter = <T>(selector: (s: RouterState) => T): T => useStore(routerStore, selector);
export const useSystem = <T>(selector: (s: SystemState) => T): T => useStore(systemStore, selector);
export const useClusterPage = <T>(selector: (s: ClusterPageState) => T): T => useStore(clusterPageStore, selector);
export const useClusterSetup = <T>(selector: (s: ClusterSetupState) => T): T => useStore(clusterSetupStore, selector);
export const useComponents = <T>(selector: (s: ComponentsState) => T): T => useStore(componentsStore, selector);
export const useCommands = <T>(selector: (s: CommandsState) => T): T => useStore(commandsStore, selector);
export const useClusterCommands = <T>(selector: (s: CommandsState) => T): T => useStore(clusterCommandsStore, selector);
export const useAudit = <T>(selector: (s: AuditState) => T): T => useStore(auditStore, selector);
export const useUsers = <T>(selector: (s: UsersState) => T): T => useStore(usersStore, selector);
export const useTokens = <T>(selector: (s: TokensState) => T): T => useStore(tokensStore, selector);
export const useReports = <T>(selector: (s: ReportsState) => T): T => useStore(reportsStore, selector);
export const usePalette = <T>(selector: (s: PaletteState) => T): T => useStore(paletteStore, selector);
export const useProfile = <T>(selector: (s: ProfileState) => T): T => useStore(profileStore, selector);
export const useApprovals = <T>(selector: (s: ApprovalsState) => T): T => useStore(approvalsStore, selector);
export const useClusterApprovals = <T>(selector: (s: ApprovalsState) => T): T => useStore(clusterApprovalsStore, selector);
export const useChecks = <T>(selector: (s: ChecksState) => T): T => useStore(checksStore, selector);
export const useMfaEnrolment = <T>(selector: (s: MfaEnrolmentState) => T): T => useStore(mfaEnrolmentStore, selector);
export const useConsoleSettings = <T>(selector: (s: ConsoleSettingsState) => T): T => useStore(consoleSettingsStore, selector);

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
