// Clusters: the list from the manager, create / update / remove, filter and sort, and live refresh on
// `cluster.*` events. Derived views are memoised selectors so thousands of rows stay cheap. The first load
// asks for a first page, shows it with the manager's count, then asks for the rest.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Cluster, ClusterCreate, ClusterPatch, ClusterState } from '../../../../preload/api';
import { toApiError, type ApiError } from '../../api/client';
import { emptyList, itemsOf } from '../../stores/list';
import type { LiveDeps, LiveStore } from '../../stores/live';
import { IDLE, mutation, type MutationState } from '../../stores/mutation';

export type ClusterSortKey = 'name' | 'state' | 'created';
export type SortDirection = 'asc' | 'desc';
export interface ClusterSort {
  key: ClusterSortKey;
  dir: SortDirection;
}

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** A screenful or more on any display, and cheap for the manager: only a page's clusters get their agent's view. */
export const FIRST_PAGE = 100;

/** Its events: `cluster.changed`, and `agent.seen` for a row not shown connected, refresh the list (coalesced). */
export interface ClustersState extends LiveStore {
  /** Every cluster once the list is whole; only the first page while `expectedTotal` is set. */
  items: Cluster[];
  /** 'loading' until the list is whole, even once its first page is shown. */
  status: LoadStatus;
  /** How many clusters the manager has, while `items` hold only the first page (the rest loading, or failed); null once whole. */
  expectedTotal: number | null;
  /** Error of the last load; the previous items stay shown. */
  error: ApiError | null;
  filter: string;
  sort: ClusterSort;
  selectedId: string | null;
  creation: MutationState;
  /** Update or removal of the selected cluster. */
  mutation: MutationState;
  /** The create form is open (the command palette's "New cluster" opens it too). */
  createFormOpen: boolean;

  load(): Promise<void>;
  /** A load unless one is on its way: the screen, opening, joins the one started as the session was confirmed. */
  ensureLoad(): Promise<void>;
  /**
   * Asks for the first page while the session is being checked, so the first load finds it in; the answer is
   * used by that load only (a failure, a 401 before sign-in included, makes it ask again), and reset drops it.
   * Resolves once the answer is in, whatever it is.
   */
  prefetchFirstPage(): Promise<void>;
  create(input: ClusterCreate): Promise<Cluster | null>;
  update(id: string, patch: ClusterPatch): Promise<Cluster | null>;
  /** `approvalId`: another admin's approval, where the cluster's profile wants four eyes. */
  remove(id: string, approvalId?: string): Promise<boolean>;
  setFilter(filter: string): void;
  setSort(sort: ClusterSort): void;
  /** Click on a column header: same column flips the direction, another one sorts ascending. */
  toggleSort(key: ClusterSortKey): void;
  select(id: string | null): void;
  setCreateFormOpen(open: boolean): void;
  clearCreationError(): void;
  clearMutationError(): void;
}

export type ClustersStore = StoreApi<ClustersState>;

type ClusterPage = Awaited<ReturnType<LiveDeps['client']['listClusters']>>;
interface FirstPageAhead {
  answer: Promise<ClusterPage>;
  settled?: ClusterPage;
}

const DEFAULT_SORT: ClusterSort = { key: 'name', dir: 'asc' };

export function createClustersStore(deps: LiveDeps): ClustersStore {
  const { client } = deps;
  const debounceMs = deps.eventDebounceMs ?? 150;
  let loadSeq = 0;
  let inFlight: Promise<void> | null = null;
  /** The first page asked for ahead, and its answer once in (taken without a wait, in the same render as the session). */
  let ahead: FirstPageAhead | null = null;
  let eventTimer: ReturnType<typeof setTimeout> | null = null;

  const initial = {
    ...emptyList<Cluster>(),
    expectedTotal: null,
    filter: '',
    sort: DEFAULT_SORT,
    selectedId: null,
    creation: IDLE,
    mutation: IDLE,
    createFormOpen: false,
  };

  return createStore<ClustersState>()((set, get) => {
    /** The first load by pages (a first page, then the rest); a reload whole, keeping the rows until it is in. */
    const fetchList = async (): Promise<void> => {
      const seq = ++loadSeq;
      const keepSelected = (items: Cluster[]): string | null => {
        const id = get().selectedId;
        return id && items.some((c) => c.id === id) ? id : null;
      };
      try {
        if (get().items.length > 0) {
          // A reload keeps the rows on screen and replaces them once the new list is whole.
          set({ status: get().status === 'ready' ? 'ready' : 'loading', error: null });
          const list = await client.listClusters();
          if (seq !== loadSeq) return; // a newer load answers instead
          const items = itemsOf(list);
          set({ items, expectedTotal: null, status: 'ready', error: null, selectedId: keepSelected(items) });
          return;
        }
        set({ status: 'loading', error: null });
        const early = ahead;
        ahead = null;
        const first =
          early?.settled ??
          (await (early
            ? early.answer.catch(() => client.listClusters({ limit: FIRST_PAGE }))
            : client.listClusters({ limit: FIRST_PAGE })));
        if (seq !== loadSeq) return;
        const page = itemsOf(first);
        // An older manager ignores the limit and sends the whole list, without `next`.
        if (typeof first.next !== 'string') {
          set({ items: page, expectedTotal: null, status: 'ready', error: null, selectedId: keepSelected(page) });
          return;
        }
        const total = typeof first.total === 'number' ? first.total : page.length;
        set({ items: page, expectedTotal: Math.max(total, page.length), status: 'loading', error: null });
        const rest = await client.listClusters({ after: first.next });
        if (seq !== loadSeq) return;
        // A cluster renamed between the two calls may come twice: the later answer wins.
        const items = [...new Map([...page, ...itemsOf(rest)].map((c) => [c.id, c])).values()];
        set({ items, expectedTotal: null, status: 'ready', error: null, selectedId: keepSelected(items) });
      } catch (e) {
        if (seq !== loadSeq) return;
        const { items, expectedTotal } = get();
        // Rows that are the whole list stay 'ready' with the error; a first page alone is not the list.
        set({ status: items.length > 0 && expectedTotal === null ? 'ready' : 'error', error: toApiError(e) });
      }
    };

    return {
      ...initial,

      load() {
        const done = fetchList();
        inFlight = done;
        void done.finally(() => {
          if (inFlight === done) inFlight = null;
        });
        return done;
      },

      ensureLoad() {
        return inFlight ?? get().load();
      },

      prefetchFirstPage() {
        if (ahead || inFlight || get().items.length > 0) return Promise.resolve();
        const entry: FirstPageAhead = { answer: client.listClustersAhead({ limit: FIRST_PAGE }) };
        ahead = entry;
        return entry.answer.then(
          (page) => void (entry.settled = page),
          () => undefined, // the load asks again
        );
      },

      async create(input) {
        const done = await mutation(
          set,
          (creation) => ({ creation }),
          () => client.createCluster(input),
        );
        if (done)
          set((s) => ({ items: upsert(s.items, done.value), expectedTotal: s.expectedTotal === null ? null : s.expectedTotal + 1 }));
        return done?.value ?? null;
      },

      async update(id, patch) {
        const done = await mutation(
          set,
          (m) => ({ mutation: m }),
          () => client.updateCluster(id, patch),
        );
        if (done) set((s) => ({ items: upsert(s.items, done.value) }));
        return done?.value ?? null;
      },

      async remove(id, approvalId) {
        set({ mutation: { pending: true, error: null } });
        try {
          await client.deleteCluster(id, approvalId);
          set((s) => ({
            items: s.items.filter((c) => c.id !== id),
            expectedTotal: s.expectedTotal === null ? null : s.expectedTotal - 1,
            selectedId: s.selectedId === id ? null : s.selectedId,
            mutation: IDLE,
          }));
          return true;
        } catch (e) {
          const error = toApiError(e);
          if (error.code === 'not_found') {
            // already gone: the list follows the server
            set((s) => ({
              items: s.items.filter((c) => c.id !== id),
              expectedTotal: s.expectedTotal === null ? null : s.expectedTotal - 1,
              selectedId: null,
              mutation: IDLE,
            }));
            return true;
          }
          set({ mutation: { pending: false, error } });
          return false;
        }
      },

      setFilter(filter) {
        set({ filter });
      },

      setSort(sort) {
        set({ sort });
      },

      toggleSort(key) {
        const { sort } = get();
        set({ sort: sort.key === key ? { key, dir: sort.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: 'asc' } });
      },

      select(id) {
        set({ selectedId: id, mutation: IDLE });
      },

      setCreateFormOpen(open) {
        if (get().createFormOpen !== open) set({ createFormOpen: open });
      },

      clearCreationError() {
        set({ creation: IDLE });
      },

      clearMutationError() {
        set((s) => ({ mutation: { ...s.mutation, error: null } }));
      },

      handleEvent(event) {
        // A row changes with its cluster (cluster.changed), and its state with its agent's first contact: a cluster
        // agent's, or a node agent's for a hosts cluster, whose state is its hosts'. The manager announces that
        // contact only as agent.seen; one for a row already shown connected changes nothing here (and comes
        // with every poll).
        const moves =
          event.type === 'cluster.changed' ||
          (event.type === 'agent.seen' && get().items.some((c) => c.id === event.data.cluster_id && c.state !== 'connected'));
        if (!moves) return;
        if (eventTimer) return;
        eventTimer = setTimeout(() => {
          eventTimer = null;
          void get().load();
        }, debounceMs);
      },

      startLive() {
        return client.onEvent((event) => get().handleEvent(event));
      },

      reset() {
        loadSeq++;
        inFlight = null;
        ahead = null;
        if (eventTimer) clearTimeout(eventTimer);
        eventTimer = null;
        set({ ...initial });
      },
    };
  });
}

function upsert(items: Cluster[], cluster: Cluster): Cluster[] {
  const i = items.findIndex((c) => c.id === cluster.id);
  if (i === -1) return [...items, cluster];
  const next = items.slice();
  next[i] = cluster;
  return next;
}

// --- filtering and sorting ---

const STATE_RANK: Record<ClusterState, number> = { connected: 0, pending: 1, offline: 2, revoked: 3 };
export const CLUSTER_STATES: readonly ClusterState[] = ['connected', 'pending', 'offline', 'revoked'];

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The manager's order of the list (main/core/clusters/list-order.ts), so that its first page is this list's
 * first screen: numeric collation, then code units (names are unique).
 */
export function compareNames(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
const haystacks = new WeakMap<Cluster, string>();

function haystack(c: Cluster): string {
  let h = haystacks.get(c);
  if (h === undefined) {
    h = `${c.name}\n${c.state}\n${c.tenant ?? ''}\n${c.description ?? ''}`.toLowerCase();
    haystacks.set(c, h);
  }
  return h;
}

/** Every whitespace-separated term of the filter must appear in the name, state, tenant or description. */
export function matchesFilter(c: Cluster, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const h = haystack(c);
  return terms.every((t) => h.includes(t));
}

export function filterTerms(filter: string): string[] {
  return filter
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t.length > 0);
}

function compare(a: Cluster, b: Cluster, key: ClusterSortKey): number {
  switch (key) {
    case 'name':
      return compareNames(a.name, b.name);
    case 'state':
      return (STATE_RANK[a.state] ?? 99) - (STATE_RANK[b.state] ?? 99);
    case 'created':
      return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0;
  }
}

export function sortClusters(items: readonly Cluster[], sort: ClusterSort): Cluster[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return items.slice().sort((a, b) => {
    const primary = compare(a, b, sort.key) * sign;
    if (primary !== 0) return primary;
    // Ties: by name, then id, so the order is stable across reloads.
    return compareNames(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
}

export function filterClusters(items: readonly Cluster[], filter: string): readonly Cluster[] {
  const terms = filterTerms(filter);
  return terms.length === 0 ? items : items.filter((c) => matchesFilter(c, terms));
}

export function filterAndSort(items: readonly Cluster[], filter: string, sort: ClusterSort): readonly Cluster[] {
  return filterClusters(sortClusters(items, sort), filter);
}

/** Memoises on the identity of its inputs (zustand selectors must return stable references). */
function memoLast<A extends readonly unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let lastArgs: A | null = null;
  let lastResult: R;
  return (...args: A): R => {
    if (lastArgs && lastArgs.length === args.length && lastArgs.every((v, i) => Object.is(v, args[i]))) return lastResult;
    lastResult = fn(...args);
    lastArgs = args;
    return lastResult;
  };
}

/** A memoised selector of the filtered, sorted rows. Sorting is redone only when the items or the sort change;
 * typing in the filter only filters the sorted rows. Create one per consumer (`useMemo(makeSelectVisible, [])`). */
export function makeSelectVisible(): (s: ClustersState) => readonly Cluster[] {
  const sorted = memoLast(sortClusters);
  const filtered = memoLast(filterClusters);
  return (s) => filtered(sorted(s.items, s.sort), s.filter);
}

export const selectVisibleClusters = makeSelectVisible();

const countStates = memoLast((items: readonly Cluster[]): Record<ClusterState, number> => {
  const counts: Record<ClusterState, number> = { connected: 0, pending: 0, offline: 0, revoked: 0 };
  for (const c of items) if (c.state in counts) counts[c.state] += 1;
  return counts;
});
export const selectStateCounts = (s: ClustersState): Record<ClusterState, number> => countStates(s.items);

/** The manager's count, right from the first page on. */
export const selectTotal = (s: ClustersState): number => s.expectedTotal ?? s.items.length;

/** The rows are only the first page: the rest is loading (or failed to), so filters and counts are not over every cluster yet. */
export const selectPartial = (s: ClustersState): boolean => s.expectedTotal !== null;

export const selectSelectedCluster = (s: ClustersState): Cluster | null =>
  s.selectedId ? (s.items.find((c) => c.id === s.selectedId) ?? null) : null;

export const selectClusterByName = (s: ClustersState, name: string): Cluster | null => s.items.find((c) => c.name === name) ?? null;
