// The API tokens of one account, for the Users screen: the list with each token's state, a new token (its secret
// kept here only until the operator closes it, never reloaded), and a revocation.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiToken, ApiTokenCreate, NewApiToken } from '../../../preload/api';
import { toApiError, type ApiClient, type ApiError } from '../api/client';
import type { LoadStatus, MutationState } from './clusters';

export interface TokensState {
  /** Whose tokens are shown; null: none. */
  user: string | null;
  items: ApiToken[];
  status: LoadStatus;
  error: ApiError | null;
  creation: MutationState;
  /** The token just created, secret included: shown once. */
  created: NewApiToken | null;
  revocation: MutationState & { id: string | null };
  open(user: string): Promise<void>;
  create(input: ApiTokenCreate): Promise<NewApiToken | null>;
  revoke(id: string): Promise<boolean>;
  dismissCreated(): void;
  close(): void;
}

export type TokensStore = StoreApi<TokensState>;

const IDLE: MutationState = { pending: false, error: null };

export function createTokensStore(deps: { client: ApiClient }): TokensStore {
  const { client } = deps;
  const initial = {
    user: null,
    items: [] as ApiToken[],
    status: 'idle' as LoadStatus,
    error: null,
    creation: IDLE,
    created: null,
    revocation: { ...IDLE, id: null },
  };
  return createStore<TokensState>()((set, get) => ({
    ...initial,
    async open(user) {
      set({ ...initial, user, status: 'loading' });
      try {
        const { items } = await client.listUserTokens(user);
        if (get().user === user) set({ items: Array.isArray(items) ? items : [], status: 'ready' });
      } catch (e) {
        if (get().user === user) set({ status: 'error', error: toApiError(e) });
      }
    },
    async create(input) {
      const user = get().user;
      if (!user) return null;
      set({ creation: { pending: true, error: null }, created: null });
      try {
        const made = await client.createUserToken(user, input);
        if (get().user !== user) return null;
        const { token: _secret, ...listed } = made;
        set((s) => ({ items: [listed, ...s.items.filter((t) => t.id !== made.id)], creation: IDLE, created: made }));
        return made;
      } catch (e) {
        set({ creation: { pending: false, error: toApiError(e) } });
        return null;
      }
    },
    async revoke(id) {
      const user = get().user;
      if (!user) return false;
      set({ revocation: { pending: true, error: null, id } });
      try {
        const revoked = await client.revokeUserToken(user, id);
        set((s) => ({ items: s.items.map((t) => (t.id === id ? revoked : t)), revocation: { ...IDLE, id } }));
        return true;
      } catch (e) {
        set({ revocation: { pending: false, error: toApiError(e), id } });
        return false;
      }
    },
    dismissCreated() {
      set({ created: null });
    },
    close() {
      set({ ...initial });
    },
  }));
}
