// The API tokens of one account, for the Users screen: the list with each token's state, a new token (its secret
// kept here only until the operator closes it, never reloaded), and a revocation.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiToken, ApiTokenCreate, NewApiToken } from '../../../../preload/api';
import { toApiError, type ApiClient } from '../../api/client';
import { emptyList, itemsOf, type ListState } from '../../stores/list';
import { IDLE, mutation, type MutationState } from '../../stores/mutation';

export interface TokensState extends ListState<ApiToken> {
  /** Whose tokens are shown; null: none. */
  user: string | null;
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

export function createTokensStore(deps: { client: ApiClient }): TokensStore {
  const { client } = deps;
  const initial = {
    user: null,
    ...emptyList<ApiToken>(),
    creation: IDLE,
    created: null,
    revocation: { ...IDLE, id: null },
  };
  return createStore<TokensState>()((set, get) => ({
    ...initial,
    async open(user) {
      set({ ...initial, user, status: 'loading' });
      try {
        const items = itemsOf(await client.listUserTokens(user));
        if (get().user === user) set({ items, status: 'ready' });
      } catch (e) {
        if (get().user === user) set({ status: 'error', error: toApiError(e) });
      }
    },
    async create(input) {
      const user = get().user;
      if (!user) return null;
      set({ created: null });
      const done = await mutation(
        set,
        (creation) => ({ creation }),
        () => client.createUserToken(user, input),
      );
      if (!done || get().user !== user) return null;
      const { token: _secret, ...listed } = done.value;
      set((s) => ({ items: [listed, ...s.items.filter((t) => t.id !== listed.id)], created: done.value }));
      return done.value;
    },
    async revoke(id) {
      const user = get().user;
      if (!user) return false;
      const done = await mutation(
        set,
        (m) => ({ revocation: { ...m, id } }),
        () => client.revokeUserToken(user, id),
      );
      if (done) set((s) => ({ items: s.items.map((t) => (t.id === id ? done.value : t)) }));
      return done !== null;
    },
    dismissCreated() {
      set({ created: null });
    },
    close() {
      set({ ...initial });
    },
  }));
}
