// The app's single instances of the client and the stores, and the hooks components use (always with a
// selector). Tests build their own instances with the factories in stores/.
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { createClient } from '../api/client';
import { createClustersStore, type ClustersState } from '../stores/clusters';
import { createRouterStore, type RouterState } from '../stores/router';
import { createSessionStore, type SessionState } from '../stores/session';
import { createSystemStore, type SystemState } from '../stores/system';
import { createUiStore, type UiState } from '../stores/ui';
import { formatDateTime, formatDateTimeLong, formatNumber, makeTranslator, translatePlural, type Locale, type PluralKey, type Translator } from '../i18n';
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

export const useUi = <T,>(selector: (s: UiState) => T): T => useStore(uiStore, selector);
export const useSession = <T,>(selector: (s: SessionState) => T): T => useStore(sessionStore, selector);
export const useClusters = <T,>(selector: (s: ClustersState) => T): T => useStore(clustersStore, selector);
export const useRouter = <T,>(selector: (s: RouterState) => T): T => useStore(routerStore, selector);
export const useSystem = <T,>(selector: (s: SystemState) => T): T => useStore(systemStore, selector);

export function useLocale(): Locale {
  return useUi((s) => s.locale);
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
    }),
    [locale],
  );
}
