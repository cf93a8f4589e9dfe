// The signed-in operator: user, role, CSRF token; sign in with a password, with a one-time ticket link
// (`#ticket=...`), or by creating the first administrator with the setup link (`#setup=TOKEN`); the second
// factor when the manager asks for it, and the forced enrolment when the profiles require one not set up yet.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { MfaChallenge, MfaStatus, SessionInfo, User } from '../../../../preload/api';
import { isMfaChallenge, toApiError, type ApiClient, type ApiError } from '../../api/client';

/** 'enrolment': signed in, but the manager refuses everything until a second factor is set up. */
export type SessionStatus = 'booting' | 'anonymous' | 'setup' | 'authenticated' | 'enrolment';
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
  /** The password (or ticket) was accepted; the code of the second factor is due with this token. */
  mfaChallenge: { token: string; expiresAt: string } | null;
  mfa: MfaStatus | null;

  /** `opening`: what the first screen needs, asked for alongside; a confirmed session waits for it, so the
   * console's first signed-in render already has it (it must not reject). */
  bootstrap(hash: string, opening?: Promise<unknown>): Promise<void>;
  /** A `#ticket=` / `#setup=` link opened in a console already running (a hash change, no reload).
   * Resolves false when the hash is not a launch link. */
  openLaunchLink(hash: string): Promise<boolean>;
  login(name: string, password: string): Promise<boolean>;
  exchangeTicket(ticket: string): Promise<boolean>;
  setup(name: string, password: string): Promise<boolean>;
  /** Sends the TOTP or recovery code of the pending challenge. */
  submitMfaCode(code: string): Promise<boolean>;
  /** Back to the password step. */
  cancelMfa(): void;
  /** A second factor was just enrolled: re-reads the session (leaves the forced enrolment screen). */
  enrolmentDone(): Promise<void>;
  /** Some call answered 403 mfa_enrollment_required. */
  requireEnrolment(): void;
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
      const mfa = info.mfa ?? null;
      set({
        status: mfa && mfa.required && !mfa.enrolled ? 'enrolment' : 'authenticated',
        mfa,
        mfaChallenge: null,
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
      set({ status: 'anonymous', user: null, csrfToken: null, expiresAt: null, pending: false, mfaChallenge: null, mfa: null, ...patch });
    };

    /** A session, or the challenge of the second factor (the login screen asks for the code). */
    const answered = (answer: SessionInfo | MfaChallenge): void => {
      if (isMfaChallenge(answer)) {
        set({ status: 'anonymous', pending: false, error: null, mfaChallenge: { token: answer.mfa_token, expiresAt: answer.expires_at } });
      } else signedIn(answer);
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
      mfaChallenge: null,
      mfa: null,

      async bootstrap(hash, opening) {
        if (bootstrapped) return;
        bootstrapped = true;
        const launch = parseLaunchHash(hash);
        // One-time secrets leave the address bar before anything else happens.
        if (launch.ticket || launch.setup) deps.clearLaunchHash?.();

        if (launch.ticket) {
          if ((await get().exchangeTicket(launch.ticket)) || get().mfaChallenge) return;
          set({ status: 'anonymous' });
          await refreshSetupNeeded();
          return;
        }

        if (launch.setup && (await enterSetup(launch.setup))) return;

        // A launch link opened while these answers were awaited has decided the session since: it wins.
        const superseded = (): boolean => get().status !== 'booting' || get().pending;
        try {
          const info = await client.getSession();
          await opening;
          if (!superseded()) signedIn(info);
        } catch (e) {
          if (superseded()) return;
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
          answered(await client.login({ name, password }));
          return get().status === 'authenticated' || get().status === 'enrolment';
        } catch (e) {
          set({ pending: false, error: toApiError(e) });
          return false;
        }
      },

      async exchangeTicket(ticket) {
        set({ pending: true, error: null, notice: null });
        try {
          answered(await client.exchangeTicket(ticket));
          return get().status === 'authenticated' || get().status === 'enrolment';
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

      async submitMfaCode(code) {
        const challenge = get().mfaChallenge;
        if (!challenge) return false;
        set({ pending: true, error: null, notice: null });
        try {
          signedIn(await client.loginMfa(challenge.token, code.replace(/\s+/g, '')));
          return true;
        } catch (e) {
          const error = toApiError(e);
          // An expired or spent token cannot take another code: start again from the password.
          set({ pending: false, error, ...(error.code === 'mfa_token_invalid' ? { mfaChallenge: null } : {}) });
          return false;
        }
      },

      cancelMfa() {
        set({ mfaChallenge: null, error: null, pending: false });
      },

      async enrolmentDone() {
        try {
          signedIn(await client.getSession());
        } catch (e) {
          const error = toApiError(e);
          if (error.status === 401) signedOut({ error: null, notice: 'session_expired' });
          else set({ error });
        }
      },

      requireEnrolment() {
        const s = get();
        if (s.status !== 'authenticated') return;
        set({ status: 'enrolment', mfa: { enrolled: false, required: true } });
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
        const status = get().status;
        if (status !== 'authenticated' && status !== 'enrolment') return;
        signedOut({ error: null, notice: 'session_expired' });
      },

      clearError() {
        set({ error: null });
      },
    };
  });

  client.onUnauthenticated(() => store.getState().expire());
  client.onErrorCode('mfa_enrollment_required', () => store.getState().requireEnrolment());
  return store;
}

export const selectUser = (s: SessionState): User | null => s.user;
export const selectRole = (s: SessionState) => s.user?.role ?? null;
export const selectCanWrite = (s: SessionState): boolean => s.user !== null && s.user.role !== 'viewer';
