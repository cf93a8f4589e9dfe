// A list a store loads from the manager: its items, how far the load is, and the error of the last load.
import { toApiError, type ApiError } from '../api/client';
import type { LoadStatus } from '../features/clusters/store';

export interface ListState<T> {
  items: T[];
  status: LoadStatus;
  /** Of the last load; the items it had stay shown. */
  error: ApiError | null;
}

/** A list not asked for yet. */
export function emptyList<T>(): ListState<T> {
  return { items: [], status: 'idle', error: null };
}

/** The items of an answer (an older manager may leave them out). */
export function itemsOf<T>(answer: { items?: T[] | null }): T[] {
  return Array.isArray(answer.items) ? answer.items : [];
}

/**
 * Loads the list again: 'loading' while it is not ready, the items it had kept (with the error) when a reload
 * fails. An answer that comes once `current()` is false (another cluster was opened meanwhile) is dropped.
 */
export async function loadList<T>(
  get: () => ListState<T>,
  set: (partial: Partial<ListState<T>>) => void,
  fetch: () => Promise<T[]>,
  current: () => boolean = () => true,
): Promise<void> {
  if (get().status !== 'ready') set({ status: 'loading' });
  try {
    const items = await fetch();
    if (current()) set({ items, status: 'ready', error: null });
  } catch (e) {
    if (current()) set({ status: get().items.length > 0 ? 'ready' : 'error', error: toApiError(e) });
  }
}

/** `loadList` for a list of the open cluster: an answer that comes once another cluster is open is dropped. */
export async function loadClusterList<T>(
  get: () => ListState<T> & { clusterId: string | null },
  set: (partial: Partial<ListState<T>>) => void,
  fetch: (clusterId: string) => Promise<{ items?: T[] | null }>,
): Promise<void> {
  const id = get().clusterId;
  if (id)
    await loadList(
      get,
      set,
      async () => itemsOf(await fetch(id)),
      () => get().clusterId === id,
    );
}
