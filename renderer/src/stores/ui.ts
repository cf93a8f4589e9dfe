// UI preferences: locale and theme, persisted (localStorage in the app, any StateStorage in tests).
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import type { Locale } from '../i18n';
import { safeLocalStorage } from './storage';

export type ThemePreference = 'light' | 'dark' | 'system';
export type Theme = 'light' | 'dark';
export const THEMES: readonly ThemePreference[] = ['light', 'dark', 'system'];
export const UI_STORAGE_KEY = 'navin.ui';

export interface UiState {
  locale: Locale;
  theme: ThemePreference;
  setLocale(locale: Locale): void;
  setTheme(theme: ThemePreference): void;
}

export type UiStore = StoreApi<UiState>;

export interface UiDeps {
  storage?: StateStorage<unknown>;
  /** Preferred languages of the workstation (navigator.languages), used until the operator picks one. */
  languages?: readonly string[];
}

/** 'fr' when the first supported preferred language is French, else 'en'. */
export function detectLocale(languages: readonly string[] | undefined): Locale {
  for (const l of languages ?? []) {
    const base = l.toLowerCase().split('-')[0];
    if (base === 'fr') return 'fr';
    if (base === 'en') return 'en';
  }
  return 'en';
}

export function resolveTheme(preference: ThemePreference, systemPrefersDark: boolean): Theme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

const isLocale = (v: unknown): v is Locale => v === 'en' || v === 'fr';
const isTheme = (v: unknown): v is ThemePreference => v === 'light' || v === 'dark' || v === 'system';

export function createUiStore(deps: UiDeps = {}): UiStore {
  const storage = deps.storage ?? safeLocalStorage();
  return createStore<UiState>()(
    persist(
      (set) => ({
        locale: detectLocale(deps.languages),
        theme: 'system',
        setLocale: (locale) => {
          if (isLocale(locale)) set({ locale });
        },
        setTheme: (theme) => {
          if (isTheme(theme)) set({ theme });
        },
      }),
      {
        name: UI_STORAGE_KEY,
        version: 1,
        storage: createJSONStorage(() => storage),
        partialize: (s) => ({ locale: s.locale, theme: s.theme }),
        // Values edited by hand in storage are ignored rather than trusted.
        merge: (persisted, current) => {
          const p = (typeof persisted === 'object' && persisted !== null ? persisted : {}) as Partial<UiState>;
          return {
            ...current,
            ...(isLocale(p.locale) ? { locale: p.locale } : {}),
            ...(isTheme(p.theme) ? { theme: p.theme } : {}),
          };
        },
      },
    ),
  );
}
