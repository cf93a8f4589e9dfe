// The clusters store's first load: a first page shown with the manager's count, then the rest; what it does
// when the rest fails, when the manager is older, when a newer load overtakes it; and the list's order, which
// must be the manager's for a first page to be the first screen; the first page asked for ahead, alongside the
// session check.
import { describe, expect, it } from 'vitest';
import type { ApiResponse, Cluster } from '../../preload/api';
import {
  FIRST_PAGE,
  compareNames,
  createClustersStore,
  selectPartial,
  selectTotal,
  selectVisibleClusters,
  sortClusters,
} from '../../renderer/src/features/clusters/store';
import { compareClusterNames } from '../../main/core/clusters/list-order';
import { FakeApi, apiError, cluster, flush, makeClient } from './support/fake-api';

const FIRST = `GET /api/v1/clusters?limit=${FIRST_PAGE}`;

function deferred(): { promise: Promise<ApiResponse>; resolve: (r: ApiResponse) => void } {
  let resolve!: (r: ApiResponse) => void;
  const promise = new Promise<ApiResponse>((r) => (resolve = r));
  return { promise, resolve };
}

function setup() {
  const api = new FakeApi();
  const store = createClustersStore({ client: makeClient(api), eventDebounceMs: 0 });
  return { api, store };
}

describe('clusters store, first load by pages', () => {
  it('shows the first page with the whole count, then the whole list once the rest comes', async () => {
    const { api, store } = setup();
    const page = [cluster('edge-1'), cluster('edge-2')];
    const rest = [cluster('edge-3'), cluster('edge-4'), cluster('edge-5')];
    const restAnswer = deferred();
    api.on(FIRST, { status: 200, body: { items: page, total: 5, next: 'edge-2' } });
    api.on('GET /api/v1/clusters?after=edge-2', () => restAnswer.promise);

    const done = store.getState().load();
    await flush();
    expect(store.getState()).toMatchObject({ items: page, status: 'loading', expectedTotal: 5, error: null });
    expect(selectTotal(store.getState())).toBe(5);
    expect(selectPartial(store.getState())).toBe(true);
    expect(selectVisibleClusters(store.getState()).map((c) => c.name)).toEqual(['edge-1', 'edge-2']);

    restAnswer.resolve({ status: 200, body: { items: rest, total: 5, next: null } });
    await done;
    expect(store.getState()).toMatchObject({ status: 'ready', expectedTotal: null, error: null });
    expect(store.getState().items.map((c) => c.name)).toEqual(['edge-1', 'edge-2', 'edge-3', 'edge-4', 'edge-5']);
    expect(selectTotal(store.getState())).toBe(5);
    expect(selectPartial(store.getState())).toBe(false);
    expect(api.calls.map((c) => c.path)).toEqual([`/api/v1/clusters?limit=${FIRST_PAGE}`, '/api/v1/clusters?after=edge-2']);
  });

  it('a list that fits in the first page is whole at once: one call', async () => {
    const { api, store } = setup();
    api.on(FIRST, { status: 200, body: { items: [cluster('only')], total: 1, next: null } });
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'ready', expectedTotal: null });
    expect(api.calls).toHaveLength(1);
  });

  it('an older manager that ignores the limit sends the whole list without next: taken as whole', async () => {
    const { api, store } = setup();
    const all = Array.from({ length: 3 }, (_, i) => cluster(`old-${i}`));
    api.on('GET /api/v1/clusters', { status: 200, body: { items: all } });
    await store.getState().load();
    expect(store.getState()).toMatchObject({ items: all, status: 'ready', expectedTotal: null });
    expect(selectTotal(store.getState())).toBe(3);
  });

  it('a cluster renamed between the two calls comes once, as the later answer has it', async () => {
    const { api, store } = setup();
    const a = cluster('alpha');
    api.on(FIRST, { status: 200, body: { items: [a, cluster('beta')], total: 3, next: 'beta' } });
    api.on('GET /api/v1/clusters?after=beta', {
      status: 200,
      body: { items: [{ ...a, name: 'zeta' }, cluster('gamma')], total: 3, next: null },
    });
    await store.getState().load();
    expect(
      store
        .getState()
        .items.filter((c) => c.id === a.id)
        .map((c) => c.name),
    ).toEqual(['zeta']);
    expect(store.getState().items).toHaveLength(3);
  });

  it('when the rest fails, the first page stays with the count and the error, not as the whole list; a retry asks for it whole', async () => {
    const { api, store } = setup();
    const page = [cluster('edge-1')];
    api.on(FIRST, { status: 200, body: { items: page, total: 4, next: 'edge-1' } });
    api.on('GET /api/v1/clusters?after=edge-1', apiError(503, 'unavailable'));
    await store.getState().load();
    expect(store.getState()).toMatchObject({ items: page, status: 'error', expectedTotal: 4 });
    expect(store.getState().error?.code).toBe('unavailable');
    expect(selectPartial(store.getState())).toBe(true);

    const all = [...page, cluster('edge-2'), cluster('edge-3'), cluster('edge-4')];
    api.on('GET /api/v1/clusters', { status: 200, body: { items: all, total: 4, next: null } });
    await store.getState().load();
    expect(store.getState()).toMatchObject({ items: all, status: 'ready', expectedTotal: null, error: null });
    expect(api.calls.at(-1)?.path).toBe('/api/v1/clusters');
  });

  it('a first page that fails leaves no rows and the error', async () => {
    const { api, store } = setup();
    api.on(FIRST, apiError(500, 'internal'));
    await store.getState().load();
    expect(store.getState()).toMatchObject({ items: [], status: 'error', expectedTotal: null });
  });

  it('a reload of a whole list is one call and keeps the rows shown until the new list is whole', async () => {
    const { api, store } = setup();
    api.on(FIRST, { status: 200, body: { items: [cluster('a')], total: 1, next: null } });
    await store.getState().load();
    const answer = deferred();
    api.on('GET /api/v1/clusters', () => answer.promise);
    const done = store.getState().load();
    await flush();
    expect(store.getState()).toMatchObject({ status: 'ready' });
    expect(store.getState().items.map((c) => c.name)).toEqual(['a']);
    answer.resolve({ status: 200, body: { items: [cluster('a'), cluster('b')], total: 2, next: null } });
    await done;
    expect(store.getState().items.map((c) => c.name)).toEqual(['a', 'b']);
    expect(api.calls.map((c) => c.path)).toEqual([`/api/v1/clusters?limit=${FIRST_PAGE}`, '/api/v1/clusters']);
  });

  it('a newer load overtakes the rest: the older answer is dropped', async () => {
    const { api, store } = setup();
    const restAnswer = deferred();
    api.on(FIRST, { status: 200, body: { items: [cluster('p')], total: 2, next: 'p' } });
    api.on('GET /api/v1/clusters?after=p', () => restAnswer.promise);
    const first = store.getState().load();
    await flush();
    api.on('GET /api/v1/clusters', { status: 200, body: { items: [cluster('new-1'), cluster('new-2')], total: 2, next: null } });
    await store.getState().load();
    restAnswer.resolve({ status: 200, body: { items: [cluster('stale')], total: 2, next: null } });
    await first;
    expect(store.getState().items.map((c) => c.name)).toEqual(['new-1', 'new-2']);
    expect(store.getState()).toMatchObject({ status: 'ready', expectedTotal: null });
  });

  it('ensureLoad joins the load on its way (the screen opening after the session started it), else loads', async () => {
    const { api, store } = setup();
    const answer = deferred();
    api.on(FIRST, () => answer.promise);
    const started = store.getState().ensureLoad();
    const joined = store.getState().ensureLoad();
    answer.resolve({ status: 200, body: { items: [cluster('a')], total: 1, next: null } });
    await Promise.all([started, joined]);
    expect(api.calls).toHaveLength(1);
    api.on('GET /api/v1/clusters', { status: 200, body: { items: [cluster('a')], total: 1, next: null } });
    await store.getState().ensureLoad();
    expect(api.calls.map((c) => c.path)).toEqual([`/api/v1/clusters?limit=${FIRST_PAGE}`, '/api/v1/clusters']);
  });

  it('creating or removing a cluster while the rest loads keeps the count right', async () => {
    const { api, store } = setup();
    const first = cluster('a');
    api.on(FIRST, { status: 200, body: { items: [first], total: 10, next: 'a' } });
    api.on('GET /api/v1/clusters?after=a', () => deferred().promise);
    void store.getState().load();
    await flush();
    api.on('POST /api/v1/clusters', { status: 201, body: cluster('b') });
    await store.getState().create({ name: 'b' });
    expect(selectTotal(store.getState())).toBe(11);
    api.on(`DELETE /api/v1/clusters/${first.id}`, { status: 204, body: null });
    await store.getState().remove(first.id);
    expect(selectTotal(store.getState())).toBe(10);
  });
});

describe('clusters store, the first page asked for alongside the session check', () => {
  it('the load takes the answer already in without waiting: the page is there the moment load() is called', async () => {
    const { api, store } = setup();
    api.on(FIRST, { status: 200, body: { items: [cluster('edge-1')], total: 2, next: 'edge-1' } });
    api.on('GET /api/v1/clusters?after=edge-1', { status: 200, body: { items: [cluster('edge-2')], total: 2, next: null } });
    await store.getState().prefetchFirstPage();
    const done = store.getState().load();
    // Same tick: the signed-in console's first render already has the rows.
    expect(store.getState()).toMatchObject({ status: 'loading', expectedTotal: 2 });
    expect(store.getState().items.map((c) => c.name)).toEqual(['edge-1']);
    await done;
    expect(store.getState().items.map((c) => c.name)).toEqual(['edge-1', 'edge-2']);
    expect(api.calls.map((c) => c.path)).toEqual([`/api/v1/clusters?limit=${FIRST_PAGE}`, '/api/v1/clusters?after=edge-1']);
  });

  it('a load started before the answer is in waits for it rather than asking twice', async () => {
    const { api, store } = setup();
    const answer = deferred();
    api.on(FIRST, () => answer.promise);
    const ahead = store.getState().prefetchFirstPage();
    const done = store.getState().load();
    answer.resolve({ status: 200, body: { items: [cluster('only')], total: 1, next: null } });
    await Promise.all([ahead, done]);
    expect(store.getState()).toMatchObject({ status: 'ready', expectedTotal: null });
    expect(api.calls).toHaveLength(1);
  });

  it('a 401 before sign-in is told to no one (no sign-out, no expired notice) and the load after sign-in asks again', async () => {
    const api = new FakeApi();
    const client = makeClient(api);
    const store = createClustersStore({ client, eventDebounceMs: 0 });
    const told: string[] = [];
    client.onUnauthenticated((e) => told.push(e.code));
    api.on(FIRST, apiError(401, 'unauthenticated'));
    await store.getState().prefetchFirstPage();
    expect(told).toEqual([]);
    api.on(FIRST, { status: 200, body: { items: [cluster('after-login')], total: 1, next: null } });
    await store.getState().load();
    expect(store.getState().items.map((c) => c.name)).toEqual(['after-login']);
    expect(api.calls.filter((c) => c.path === `/api/v1/clusters?limit=${FIRST_PAGE}`)).toHaveLength(2);
  });

  it('reset drops an answer asked for ahead: an operator signing in later gets a fresh list', async () => {
    const { api, store } = setup();
    api.on(FIRST, { status: 200, body: { items: [cluster('stale')], total: 1, next: null } });
    await store.getState().prefetchFirstPage();
    store.getState().reset();
    api.on(FIRST, { status: 200, body: { items: [cluster('fresh')], total: 1, next: null } });
    await store.getState().load();
    expect(store.getState().items.map((c) => c.name)).toEqual(['fresh']);
  });
});

describe('the list order, the console and the manager', () => {
  const names = [
    'edge-10',
    'edge-9',
    'edge-09',
    'edge-1',
    'edge-100',
    'edge.1',
    'edge-1a',
    'a',
    'a0',
    'a-0',
    'a.0',
    '10',
    '9',
    '0009',
    'zz',
    'z-1.2',
    'z-1.10',
  ];

  it('compare the same way, never two names equal', () => {
    for (const a of names)
      for (const b of names) {
        expect(Math.sign(compareNames(a, b)), `${a} / ${b}`).toBe(Math.sign(compareClusterNames(a, b)));
        if (a !== b) expect(compareNames(a, b)).not.toBe(0);
      }
  });

  it("the console's name sort is the manager's order", () => {
    const rows: Cluster[] = names.map((n) => cluster(n));
    const console = sortClusters(rows, { key: 'name', dir: 'asc' }).map((c) => c.name);
    expect(console).toEqual([...names].sort(compareClusterNames));
    expect(console.indexOf('edge-9')).toBeLessThan(console.indexOf('edge-10'));
  });
});
