import { describe, expect, it, vi } from 'vitest';
import type { Cluster } from '../../preload/api';
import {
  createClustersStore,
  filterAndSort,
  makeSelectVisible,
  selectSelectedCluster,
  selectStateCounts,
  selectVisibleClusters,
} from '../../renderer/src/features/clusters/store';
import { FakeApi, apiError, cluster, flush, makeClient } from './support/fake-api';

function setup(items: Cluster[] = [], debounce = 0) {
  const api = new FakeApi();
  let list = items;
  api.on('GET /api/v1/clusters', () => ({ status: 200, body: { items: list } }));
  const store = createClustersStore({ client: makeClient(api), eventDebounceMs: debounce });
  return { api, store, setList: (next: Cluster[]) => (list = next) };
}

describe('clusters store', () => {
  it('loads the list', async () => {
    const a = cluster('alpha');
    const { store } = setup([a]);
    expect(store.getState().status).toBe('idle');
    const p = store.getState().load();
    expect(store.getState().status).toBe('loading');
    await p;
    expect(store.getState()).toMatchObject({ status: 'ready', items: [a], error: null });
  });

  it('keeps the rows and reports the error when a reload fails', async () => {
    const { store, api } = setup([cluster('alpha')]);
    await store.getState().load();
    api.on('GET /api/v1/clusters', apiError(500, 'internal'));
    await store.getState().load();
    expect(store.getState().status).toBe('ready');
    expect(store.getState().items).toHaveLength(1);
    expect(store.getState().error?.code).toBe('internal');
  });

  it('ignores the answer of an older load', async () => {
    const { store, api } = setup();
    let release!: () => void;
    api.on('GET /api/v1/clusters', () => new Promise((r) => (release = () => r({ status: 200, body: { items: [cluster('old')] } }))));
    const first = store.getState().load();
    const firstRelease = release;
    api.on('GET /api/v1/clusters', { status: 200, body: { items: [cluster('new')] } });
    await store.getState().load();
    firstRelease();
    await first;
    expect(store.getState().items.map((c) => c.name)).toEqual(['new']);
  });

  it('creates a cluster and shows it at once', async () => {
    const { store, api } = setup();
    const created = cluster('edge-paris-1', { description: 'Paris edge' });
    api.on('POST /api/v1/clusters', { status: 201, body: created });
    const result = await store.getState().create({ name: 'edge-paris-1', description: 'Paris edge' });
    expect(result).toEqual(created);
    expect(api.callsTo('POST', '/api/v1/clusters')[0]?.body).toEqual({ name: 'edge-paris-1', description: 'Paris edge' });
    expect(store.getState().items).toEqual([created]);
    expect(store.getState().creation).toEqual({ pending: false, error: null });
  });

  it('keeps the server refusal of a creation (invalid_field on name, name_taken)', async () => {
    const { store, api } = setup();
    api.on('POST /api/v1/clusters', apiError(400, 'invalid_field', 'name must be lowercase', 'name'));
    expect(await store.getState().create({ name: 'Bad_Name' })).toBeNull();
    expect(store.getState().creation.error).toMatchObject({ code: 'invalid_field', status: 400, field: 'name' });
    api.on('POST /api/v1/clusters', apiError(409, 'name_taken', 'taken', 'name'));
    await store.getState().create({ name: 'edge' });
    expect(store.getState().creation.error).toMatchObject({ code: 'name_taken', status: 409 });
    store.getState().clearCreationError();
    expect(store.getState().creation.error).toBeNull();
    expect(store.getState().items).toEqual([]);
  });

  it('updates and removes', async () => {
    const a = cluster('alpha');
    const b = cluster('beta');
    const { store, api } = setup([a, b]);
    await store.getState().load();
    store.getState().select(a.id);
    api.on(`PATCH /api/v1/clusters/${a.id}`, (req) => ({ status: 200, body: { ...a, ...(req.body as object) } }));
    await store.getState().update(a.id, { description: 'new' });
    expect(selectSelectedCluster(store.getState())?.description).toBe('new');
    api.on(`DELETE /api/v1/clusters/${a.id}`, { status: 204, body: undefined });
    expect(await store.getState().remove(a.id)).toBe(true);
    expect(store.getState().items).toEqual([b]);
    expect(store.getState().selectedId).toBeNull();
    // a cluster already deleted elsewhere leaves the list too
    expect(await store.getState().remove(b.id)).toBe(true);
    expect(store.getState().items).toEqual([]);
  });

  it('keeps a failed mutation error', async () => {
    const a = cluster('alpha');
    const { store, api } = setup([a]);
    await store.getState().load();
    api.on(`DELETE /api/v1/clusters/${a.id}`, apiError(403, 'forbidden'));
    expect(await store.getState().remove(a.id)).toBe(false);
    expect(store.getState().mutation.error?.code).toBe('forbidden');
    expect(store.getState().items).toEqual([a]);
  });

  it('reloads once for a burst of cluster events, ignores other events, stops when unsubscribed', async () => {
    vi.useFakeTimers();
    try {
      const { store, api, setList } = setup([], 100);
      const stop = store.getState().startLive();
      // A first load asks for a first page: every call of the list route counts, whatever its query.
      const listCalls = () => api.calls.filter((c) => c.method === 'GET' && c.path.split('?')[0] === '/api/v1/clusters');
      expect(api.listenerCount).toBe(1);
      setList([cluster('pushed')]);
      api.emit({ type: 'cluster.changed', data: { id: 'c-1' } });
      api.emit({ type: 'cluster.changed', data: { id: 'c-2' } });
      api.emit({ type: 'report.created', data: { id: 'r-1', cluster_id: 'c-1', verdict: 'PASS' } });
      expect(listCalls()).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(100);
      expect(listCalls()).toHaveLength(1);
      expect(store.getState().items.map((c) => c.name)).toEqual(['pushed']);
      stop();
      expect(api.listenerCount).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reloads when the agent of a row not shown connected is seen (its state moves), not for a connected row or one it does not show', async () => {
    // The manager announces an agent's first contact (a hosts cluster's too: its state is its hosts') only as
    // agent.seen; the list once waited for a `clusters.changed` that nothing emits.
    const pending = cluster('pending-1', { state: 'pending' });
    const connected = cluster('connected-1', { state: 'connected' });
    const { store, api, setList } = setup([pending, connected]);
    store.getState().startLive();
    await store.getState().load();
    const listCalls = () => api.calls.filter((c) => c.method === 'GET' && c.path.split('?')[0] === '/api/v1/clusters').length;
    expect(listCalls()).toBe(1);
    api.emit({ type: 'agent.seen', data: { cluster_id: connected.id } });
    api.emit({ type: 'agent.seen', data: { cluster_id: 'not-listed' } });
    await flush();
    await flush();
    expect(listCalls()).toBe(1);
    setList([{ ...pending, state: 'connected' }, connected]);
    api.emit({ type: 'agent.seen', data: { cluster_id: pending.id, host_id: 'h-1' } });
    await vi.waitFor(() => expect(store.getState().items.map((c) => c.state)).toEqual(['connected', 'connected']));
    expect(listCalls()).toBe(2);
  });

  it('reset forgets everything', async () => {
    const { store } = setup([cluster('a')]);
    await store.getState().load();
    store.getState().setFilter('a');
    store.getState().reset();
    expect(store.getState()).toMatchObject({ items: [], status: 'idle', filter: '', selectedId: null });
  });
});

describe('filter, sort and selectors', () => {
  const rows = [
    cluster('edge-10', { state: 'offline', tenant: 'acme', created_at: '2025-03-01T00:00:00Z' }),
    cluster('edge-2', { state: 'connected', tenant: 'globex', created_at: '2025-01-01T00:00:00Z', description: 'Paris site' }),
    cluster('core', { state: 'revoked', tenant: 'acme', created_at: '2025-02-01T00:00:00Z' }),
    cluster('lab', { state: 'pending', tenant: 'initech', created_at: '2025-04-01T00:00:00Z' }),
  ];
  const names = (cs: readonly Cluster[]) => cs.map((c) => c.name);

  it('sorts by name with numbers in order, both ways', () => {
    expect(names(filterAndSort(rows, '', { key: 'name', dir: 'asc' }))).toEqual(['core', 'edge-2', 'edge-10', 'lab']);
    expect(names(filterAndSort(rows, '', { key: 'name', dir: 'desc' }))).toEqual(['lab', 'edge-10', 'edge-2', 'core']);
  });

  it('sorts by state (connected, pending, offline, revoked) and by creation date', () => {
    expect(names(filterAndSort(rows, '', { key: 'state', dir: 'asc' }))).toEqual(['edge-2', 'lab', 'edge-10', 'core']);
    expect(names(filterAndSort(rows, '', { key: 'created', dir: 'desc' }))).toEqual(['lab', 'edge-10', 'core', 'edge-2']);
  });

  it('filters as you type on name, state, tenant and description, every term must match', () => {
    expect(names(filterAndSort(rows, 'EDGE', { key: 'name', dir: 'asc' }))).toEqual(['edge-2', 'edge-10']);
    expect(names(filterAndSort(rows, 'acme', { key: 'name', dir: 'asc' }))).toEqual(['core', 'edge-10']);
    expect(names(filterAndSort(rows, 'acme offline', { key: 'name', dir: 'asc' }))).toEqual(['edge-10']);
    expect(names(filterAndSort(rows, 'paris', { key: 'name', dir: 'asc' }))).toEqual(['edge-2']);
    expect(names(filterAndSort(rows, '  ', { key: 'name', dir: 'asc' }))).toHaveLength(4);
    expect(filterAndSort(rows, 'nothing', { key: 'name', dir: 'asc' })).toEqual([]);
  });

  it('toggleSort flips the same column and starts another ascending', () => {
    const { store } = setup();
    expect(store.getState().sort).toEqual({ key: 'name', dir: 'asc' });
    store.getState().toggleSort('name');
    expect(store.getState().sort).toEqual({ key: 'name', dir: 'desc' });
    store.getState().toggleSort('created');
    expect(store.getState().sort).toEqual({ key: 'created', dir: 'asc' });
  });

  it('selectors return the same reference until their inputs change', async () => {
    const { store } = setup(rows);
    await store.getState().load();
    const select = makeSelectVisible();
    const first = select(store.getState());
    expect(select(store.getState())).toBe(first);
    store.getState().select(rows[0]!.id); // unrelated change
    expect(select(store.getState())).toBe(first);
    store.getState().setFilter('edge');
    const filtered = select(store.getState());
    expect(filtered).not.toBe(first);
    expect(names(filtered)).toEqual(['edge-2', 'edge-10']);
    expect(selectStateCounts(store.getState())).toEqual({ connected: 1, pending: 1, offline: 1, revoked: 1 });
    expect(selectStateCounts(store.getState())).toBe(selectStateCounts(store.getState()));
    expect(selectVisibleClusters(store.getState())).toBe(selectVisibleClusters(store.getState()));
  });

  it('stays fast with many clusters', () => {
    const many = Array.from({ length: 20_000 }, (_, i) =>
      cluster(`site-${i}`, { state: (['pending', 'connected', 'offline', 'revoked'] as const)[i % 4], tenant: `t${i % 17}` }),
    );
    const select = makeSelectVisible();
    const state = { items: many, filter: '', sort: { key: 'name', dir: 'asc' } } as Parameters<typeof select>[0];
    const t0 = performance.now();
    select(state);
    let s = state;
    for (const f of ['s', 'si', 'sit', 'site', 'site-1', 'site-19']) {
      s = { ...s, filter: f };
      select(s);
    }
    const elapsed = performance.now() - t0;
    expect(names(select(s)).slice(0, 3)).toEqual(['site-19', 'site-190', 'site-191']);
    expect(elapsed).toBeLessThan(1500);
  });
});

it('flush helper resolves', async () => {
  await flush();
});
