// Local accounts, for administrators: the list, adding one with a role, and resetting an account's second factor
// (the manager answers 403 to others).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { User } from '../../../../preload/api';
import type { ApiClient } from '../../api/client';
import type { UserCreate } from '../../api/types';
import { emptyList, itemsOf, loadList, type ListState } from '../../stores/list';
import { IDLE, mutation, type MutationState } from '../../stores/mutation';

export interface UsersState extends ListState<User> {
  creation: MutationState;
  /** The account whose second factor is being reset, and why it failed. */
  mfaReset: MutationState & { name: string | null };
  load(): Promise<void>;
  /** `approvalId`: another admin's approval, where a profile in use wants four eyes for an admin's factor. */
  resetMfa(name: string, approvalId?: string): Promise<boolean>;
  create(input: UserCreate): Promise<User | null>;
  clearCreationError(): void;
  reset(): void;
}

export type UsersStore = StoreApi<UsersState>;

export function createUsersStore(deps: { client: ApiClient }): UsersStore {
  const { client } = deps;
  const initial = { ...emptyList<User>(), creation: IDLE, mfaReset: { ...IDLE, name: null } };
  return createStore<UsersState>()((set, get) => ({
    ...initial,
    async load() {
      await loadList(get, set, async () => sortUsers(itemsOf(await client.listUsers())));
    },
    async create(input) {
      const done = await mutation(
        set,
        (creation) => ({ creation }),
        () => client.createUser(input),
      );
      if (done) set((s) => ({ items: sortUsers([...s.items.filter((u) => u.id !== done.value.id), done.value]) }));
      return done?.value ?? null;
    },
    async resetMfa(name, approvalId) {
      const done = await mutation(
        set,
        (m) => ({ mfaReset: { ...m, name } }),
        () => client.resetUserMfa(name, approvalId),
      );
      if (done) set((s) => ({ items: s.items.map((u) => (u.name === name ? { ...u, mfa_enrolled: false } : u)) }));
      return done !== null;
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
