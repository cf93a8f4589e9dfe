// Local accounts, for administrators: the list, adding one with a role, and resetting an account's second factor
// (the manager answers 403 to others).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { User } from '../../../preload/api';
import { toApiError, type ApiClient, type ApiError } from '../api/client';
import type { UserCreate } from '../api/types';
import type { LoadStatus, MutationState } from './clusters';

export interface UsersState {
  items: User[];
  status: LoadStatus;
  error: ApiError | null;
  creation: MutationState;
  /** The account whose second factor is being reset, and why it failed. */
  mfaReset: MutationState & { name: string | null };
  load(): Promise<void>;
  resetMfa(name: string): Promise<boolean>;
  create(input: UserCreate): Promise<User | null>;
  clearCreationError(): void;
  reset(): void;
}

export type UsersStore = StoreApi<UsersState>;

const IDLE: MutationState = { pending: false, error: null };

export function createUsersStore(deps: { client: ApiClient }): UsersStore {
  const { client } = deps;
  const initial = { items: [] as User[], status: 'idle' as LoadStatus, error: null, creation: IDLE, mfaReset: { ...IDLE, name: null } };
  return createStore<UsersState>()((set, get) => ({
    ...initial,
    async load() {
      if (get().status !== 'ready') set({ status: 'loading' });
      try {
        const { items } = await client.listUsers();
        set({ items: sortUsers(Array.isArray(items) ? items : []), status: 'ready', error: null });
      } catch (e) {
        set({ status: get().items.length > 0 ? 'ready' : 'error', error: toApiError(e) });
      }
    },
    async create(input) {
      set({ creation: { pending: true, error: null } });
      try {
        const user = await client.createUser(input);
        set((s) => ({ items: sortUsers([...s.items.filter((u) => u.id !== user.id), user]), creation: IDLE }));
        return user;
      } catch (e) {
        set({ creation: { pending: false, error: toApiError(e) } });
        return null;
      }
    },
    async resetMfa(name) {
      set({ mfaReset: { pending: true, error: null, name } });
      try {
        await client.resetUserMfa(name);
        set((s) => ({ items: s.items.map((u) => (u.name === name ? { ...u, mfa_enrolled: false } : u)), mfaReset: { ...IDLE, name } }));
        return true;
      } catch (e) {
        set({ mfaReset: { pending: false, error: toApiError(e), name } });
        return false;
      }
    },
    clearCreationError() {
      set({ creation: IDLE });
    },
    reset() {
      set({ ...initial });
    },
  }));
}

function sortUsers(items: User[]): User[] {
  return items.slice().sort((a, b) => a.name.localeCompare(b.name, 'en'));
}
