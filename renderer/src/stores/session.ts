// The signed-in operator: user, role, CSRF token; sign in with a password, with a one-time ticket link
// (`#ticket=...`), or by creating the first administrator with the setup link (`#setup=TOKEN`).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SessionInfo, User } from '../../../preload/api';
import { toApiError, type ApiClient, type ApiError } from '../api/client';

export type SessionStatus = 'booting' | 'anonymous' | 'setup' | 'authenticated';
export type SessionNotice = 'session_expired' | 'signed_out' | 'setup_done';

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  csrfToken: string | null;
  expiresAt: string | null;
  /** No account exists yet: the login screen tells how to get the setup link. */
  setupNeeded: boolean;
  /** The token of the `#setup=` link, kept in memory only (the hash is cleared). */
  setupToken: string | null;
  /** A sign-in, setup or ticket exchange is in flight. */
  pending: boolean;
  /** Why the last sign-in, setup or ticket exchange failed. */
  error: ApiError | null;
  notice: SessionNotice | null;

  bootstrap(hash: string): Promise<void>;
  /** A `#ticket=` / `#setup=` link opened in a console already running (a hash change, no reload).
   * Resolves false when the hash is not a launch link. */
  openLaunchLink(hash: string): Promise<boolean>;
  login(name: string, password: string): Promise<boolean>;
  exchangeTicket(ticket: string): Promise<boolean>;
  setup(name: string, password: string): Promise<boolean>;
  logout(): Promise<void>;
  /** The server answered 401 to some call: the session is gone. */
  expire(): void;
  clearError(): void;
}

export type SessionStore = StoreApi<SessionState>;

export interface SessionDeps {
  client: ApiClient;
  /** Removes `#ticket=` / `#setup=` from the address bar (history.replaceState in the app). */
  clearLaunchHash?: () => void;
}

export interface LaunchHash {
  ticket: string | null;
  setup: string | null;
}

/** Reads `#ticket=XXXX` or `#setup=TOKEN` (other hash contents, like `#/clusters`, give nulls). */
export function parseLaunchHash(hash: string): LaunchHash {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  if (raw.startsWith('/') || raw.length === 0) return { ticket: null, setup: null };
  const params = new URLSearchParams(raw);
  const nonEmpty = (v: string | null): string | null => (v && v.trim().length > 0 ? v.trim() : null);
  return { ticket: nonEmpty(params.get('ticket')), setup: nonEmpty(params.get('setup')) };
}

export function createSessionStore(deps: SessionDeps): SessionStore {
  const { client } = deps;
  let bootstrapped = false;

  const store = createStore<SessionState>()((set, get) => {
    const signedIn = (info: SessionInfo): void => {
      client.setCsrfToken(info.csrf_token);
      set({
        status: 'authenticated',
        user: info.user,
        csrfToken: info.csrf_token,
        expiresAt: info.expires_at,
        setupNeeded: false,
        setupToken: null,
        pending: false,
        error: null,
        notice: null,
      });
    };

    const signedOut = (patch: Partial<SessionState>): void => {
      client.setCsrfToken(null);
      set({ status: 'anonymous', user: null, csrfToken: null, expiresAt: null, pending: false, ...patch });
    };

    const refreshSetupNeeded = async (): Promise<void> => {
      try {
        const { needed } = await client.setupStatus();
        set({ setupNeeded: needed === true });
      } catch {
        // the login screen works without this hint
      }
    };

    /** Shows the setup screen when no account exists yet; false (with a notice) when setup is already done. */
    const enterSetup = async (token: string): Promise<boolean> => {
      set({ setupToken: token });
      try {
        const { needed } = await client.setupStatus();
        if (needed) {
          set({ status: 'setup', setupNeeded: true, error: null, notice: null });
          return true;
        }
        set({ setupToken: null, setupNeeded: false, notice: 'setup_done' });
        return false;
      } catch (e) {
        set({ status: 'setup', error: toApiError(e) });
        return true;
      }
    };

    return {
      status: 'booting',
      user: null,
      csrfToken: null,
      expiresAt: null,
      setupNeeded: false,
      setupToken: null,
      pending: false,
      error: null,
      notice: null,

      async bootstrap(hash) {
        if (bootstrapped) return;
        bootstrapped = true;
        const launch = parseLaunchHash(hash);
        // One-time secrets leave the address bar before anything else happens.
        if (launch.ticket || launch.setup) deps.clearLaunchHash?.();

        if (launch.ticket) {
          if (await get().exchangeTicket(launch.ticket)) return;
          set({ status: 'anonymous' });
          await refreshSetupNeeded();
          return;
        }

        if (launch.setup && (await enterSetup(launch.setup))) return;

        try {
          signedIn(await client.getSession());
        } catch (e) {
          const error = toApiError(e);
          signedOut(error.status === 401 ? {} : { error });
          await refreshSetupNeeded();
        }
      },

      async openLaunchLink(hash) {
        const launch = parseLaunchHash(hash);
        if (!launch.ticket && !launch.setup) return false;
        deps.clearLaunchHash?.();
        if (!bootstrapped || get().pending) return true; // the bootstrap in flight decides
        if (launch.ticket) {
          const before = get().status;
          if (!(await get().exchangeTicket(launch.ticket)) && before !== 'authenticated') set({ status: 'anonymous' });
          return true;
        }
        if (launch.setup && get().status !== 'authenticated' && !(await enterSetup(launch.setup))) {
          set({ status: 'anonymous' });
        }
        return true;
      },

      async login(name, password) {
        set({ pending: true, error: null, notice: null });
        try {
          signedIn(await client.login({ name, password }));
          return true;
        } catch (e) {
          set({ pending: false, error: toApiError(e) });
          return false;
        }
      },

      async exchangeTicket(ticket) {
        set({ pending: true, error: null, notice: null });
        try {
          signedIn(await client.exchangeTicket(ticket));
          return true;
        } catch (e) {
          set({ pending: false, error: toApiError(e) });
          return false;
        }
      },

      async setup(name, password) {
        const token = get().setupToken;
        if (!token) {
          set({ status: 'anonymous', error: null });
          return false;
        }
        set({ pending: true, error: null });
        try {
          signedIn(await client.setup({ token, name, password }));
          return true;
        } catch (e) {
          const error = toApiError(e);
          if (error.code === 'setup_done') {
            signedOut({ setupToken: null, setupNeeded: false, error: null, notice: 'setup_done' });
          } else {
            set({ pending: false, error });
          }
          return false;
        }
      },

      async logout() {
        try {
          await client.logout();
        } catch {
          // signed out locally whatever the server said
        }
        signedOut({ error: null, notice: 'signed_out' });
      },

      expire() {
        if (get().status !== 'authenticated') return;
        signedOut({ error: null, notice: 'session_expired' });
      },

      clearError() {
        set({ error: null });
      },
    };
  });

  client.onUnauthenticated(() => store.getState().expire());
  return store;
}

export const selectUser = (s: SessionState): User | null => s.user;
export const selectRole = (s: SessionState) => s.user?.role ?? null;
export const selectCanWrite = (s: SessionState): boolean => s.user !== null && s.user.role !== 'viewer';
