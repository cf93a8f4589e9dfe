// Which screen is shown. Hash routes (`#/clusters`) work the same from file:// in the desktop window and over
// HTTPS in a browser; `#ticket=` and `#setup=` are launch links handled by the session store, not routes.
import { createStore, type StoreApi } from 'zustand/vanilla';

export const SCREENS = ['clusters', 'components', 'commands', 'approvals', 'checks', 'reports', 'audit', 'settings'] as const;
export type ScreenId = (typeof SCREENS)[number];
export const DEFAULT_SCREEN: ScreenId = 'clusters';

export function isScreenId(v: string): v is ScreenId {
  return (SCREENS as readonly string[]).includes(v);
}

/** `#/clusters` → 'clusters'; anything else → null. */
export function screenFromHash(hash: string): ScreenId | null {
  const m = /^#\/([a-z]+)\/?$/.exec(hash);
  return m && m[1] && isScreenId(m[1]) ? m[1] : null;
}

export function hashOf(screen: ScreenId): string {
  return `#/${screen}`;
}

export interface RouterState {
  screen: ScreenId;
  navigate(screen: ScreenId): void;
  /** The address bar changed (hashchange). */
  syncFromHash(hash: string): void;
}

export type RouterStore = StoreApi<RouterState>;

export interface RouterDeps {
  initialHash?: string;
  /** Writes the hash to the address bar (location.hash in the app). */
  writeHash?: (hash: string) => void;
}

export function createRouterStore(deps: RouterDeps = {}): RouterStore {
  return createStore<RouterState>()((set, get) => ({
    screen: screenFromHash(deps.initialHash ?? '') ?? DEFAULT_SCREEN,
    navigate(screen) {
      if (!isScreenId(screen)) return;
      if (get().screen !== screen) set({ screen });
      deps.writeHash?.(hashOf(screen));
    },
    syncFromHash(hash) {
      const screen = screenFromHash(hash);
      if (screen && screen !== get().screen) set({ screen });
    },
  }));
}
