import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ClusterView, Inventory, InventorySnapshot, RegistrationResult } from '../../renderer/src/api/types';
import { Coredns } from '../../renderer/src/features/cluster/OverviewTab';
import { agentPresence, createClusterPageStore } from '../../renderer/src/features/cluster/clusterPage';
import { corednsAfter } from '../../renderer/src/features/cluster/coredns';
import { createClusterSetupStore } from '../../renderer/src/features/cluster/clusterSetup';
import { FakeApi, apiError, cluster, flush, makeClient } from './support/fake-api';

const agent = (over: Partial<NonNullable<ClusterView['agent']>> = {}): NonNullable<ClusterView['agent']> => ({
  connected: true,
  last_seen: new Date().toISOString(),
  offline_since: null,
  leader_replica: 'agent-a',
  agent_version: '0.1.0',
  certificate_serial: 'abc',
  ...over,
});

const snapshot: InventorySnapshot = {
  cluster_id: 'c-1',
  taken_at: '2026-01-01T00:00:00Z',
  source: 'import',
  inventory: {
    kubernetes_version: 'v1.30.0',
    nodes: [],
    namespaces: ['default'],
    crds: [],
    storage_classes: [],
    default_storage_class: null,
    ingress_classes: [],
    default_ingress_class: null,
    coredns: null,
  },
};

describe('cluster page store', () => {
  it('loads the cluster and its inventory; no inventory yet is "missing", not an error', async () => {
    const api = new FakeApi();
    const view: ClusterView = { ...cluster('edge', { id: 'c-1', state: 'connected' }), agent: agent() };
    api.on('GET /api/v1/clusters/c-1', { status: 200, body: view });
    api.on('GET /api/v1/clusters/c-1/inventory', apiError(404, 'not_found', 'no inventory yet'));
    const store = createClusterPageStore({ client: makeClient(api), eventDebounceMs: 0 });
    await store.getState().open('c-1');
    expect(store.getState()).toMatchObject({ status: 'ready', cluster: view, inventoryStatus: 'missing', inventoryError: null });

    api.on('GET /api/v1/clusters/c-1/inventory', { status: 200, body: snapshot });
    api.on('POST /api/v1/clusters/c-1/inventory/refresh', { status: 200, body: { ...snapshot, taken_at: '2026-01-02T00:00:00Z' } });
    expect(await store.getState().refreshInventory()).toBe(true);
    expect(store.getState().inventory?.taken_at).toBe('2026-01-02T00:00:00Z');
  });

  it('reloads on this cluster’s events only, coalesced', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/clusters/c-1', { status: 200, body: cluster('edge', { id: 'c-1', state: 'connected' }) });
    api.on('GET /api/v1/clusters/c-1/inventory', { status: 200, body: snapshot });
    const store = createClusterPageStore({ client: makeClient(api), eventDebounceMs: 5 });
    const stop = store.getState().startLive();
    await store.getState().open('c-1');
    const before = api.callsTo('GET', '/api/v1/clusters/c-1').length;
    api.emit({ type: 'cluster.changed', data: { id: 'c-2' } });
    api.emit({ type: 'agent.seen', data: { cluster_id: 'c-1' } });
    api.emit({ type: 'agent.seen', data: { cluster_id: 'c-1' } });
    await new Promise((r) => setTimeout(r, 20));
    expect(api.callsTo('GET', '/api/v1/clusters/c-1').length).toBe(before + 1);
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/inventory').length).toBe(1);
    api.emit({ type: 'cluster.changed', data: { id: 'c-1' } });
    await new Promise((r) => setTimeout(r, 20));
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/inventory').length).toBe(2);
    stop();
  });

  it('forgets the previous cluster when another one opens, and ignores its late answers', async () => {
    const api = new FakeApi();
    let release!: () => void;
    api.on('GET /api/v1/clusters/c-1', () => new Promise((r) => (release = () => r({ status: 200, body: cluster('old', { id: 'c-1' }) }))));
    api.on('GET /api/v1/clusters/c-1/inventory', apiError(404, 'not_found'));
    api.on('GET /api/v1/clusters/c-2', { status: 200, body: cluster('new', { id: 'c-2' }) });
    api.on('GET /api/v1/clusters/c-2/inventory', apiError(404, 'not_found'));
    const store = createClusterPageStore({ client: makeClient(api) });
    const first = store.getState().open('c-1');
    await flush();
    await store.getState().open('c-2');
    release();
    await first;
    expect(store.getState().cluster?.name).toBe('new');
  });

  it('derives the agent’s presence, offline once silent even before an event', () => {
    const now = Date.now();
    expect(agentPresence({ state: 'pending' }, now)).toBe('none');
    expect(agentPresence({ state: 'connected', agent: agent({ last_seen: new Date(now - 5_000).toISOString() }) }, now)).toBe('connected');
    expect(agentPresence({ state: 'connected', agent: agent({ last_seen: new Date(now - 60_000).toISOString() }) }, now)).toBe('offline');
    expect(agentPresence({ state: 'offline', agent: agent({ connected: false }) }, now)).toBe('offline');
    expect(agentPresence({ state: 'revoked', agent: agent() }, now)).toBe('revoked');
  });
});

describe('the inventory of a cluster that may have none', () => {
  const pending = (id: string, kind: ClusterView['kind'] = 'kubernetes', registered_at: string | null = null): ClusterView => ({
    ...cluster('edge', { id, kind, state: 'pending' }),
    agent: agent({ connected: false, last_seen: null, leader_replica: null, agent_version: null, certificate_serial: null }),
    registered_at,
  });

  it('is asked for a pending cluster registered before (by an earlier console session): the view says so', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/clusters/c-1', { status: 200, body: pending('c-1', 'kubernetes', '2026-12-01T10:00:00.000Z') });
    api.on('GET /api/v1/clusters/c-1/inventory', { status: 200, body: snapshot });
    const store = createClusterPageStore({ client: makeClient(api), eventDebounceMs: 0 });
    await store.getState().open('c-1');
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/inventory')).toHaveLength(1);
    expect(store.getState()).toMatchObject({ inventoryStatus: 'ready', inventory: { source: 'import' } });
  });

  it("is asked for when an older manager's view does not say whether the cluster is registered", async () => {
    const api = new FakeApi();
    const { registered_at: _, ...older } = pending('c-1');
    api.on('GET /api/v1/clusters/c-1', { status: 200, body: older });
    api.on('GET /api/v1/clusters/c-1/inventory', { status: 200, body: snapshot });
    const store = createClusterPageStore({ client: makeClient(api), eventDebounceMs: 0 });
    await store.getState().open('c-1');
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/inventory')).toHaveLength(1);
  });

  it('is not asked for a pending cluster (never registered, no agent) nor a hosts cluster, and is for a connected one', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/clusters/c-1', { status: 200, body: pending('c-1') });
    api.on('GET /api/v1/clusters/c-2', { status: 200, body: pending('c-2', 'hosts') });
    api.on('GET /api/v1/clusters/c-3', { status: 200, body: { ...cluster('edge', { id: 'c-3', state: 'connected' }), agent: agent() } });
    for (const id of ['c-1', 'c-2', 'c-3'])
      api.on(`GET /api/v1/clusters/${id}/inventory`, { status: 200, body: { ...snapshot, cluster_id: id } });
    const store = createClusterPageStore({ client: makeClient(api), eventDebounceMs: 0 });

    await store.getState().open('c-1');
    expect(store.getState()).toMatchObject({ status: 'ready', inventory: null, inventoryStatus: 'missing', inventoryError: null });
    await store.getState().open('c-2');
    expect(store.getState()).toMatchObject({ status: 'ready', inventoryStatus: 'missing' });
    expect(api.calls.filter((c) => c.path.endsWith('/inventory'))).toEqual([]);

    await store.getState().open('c-3');
    expect(api.callsTo('GET', '/api/v1/clusters/c-3/inventory')).toHaveLength(1);
    expect(store.getState()).toMatchObject({ inventoryStatus: 'ready', inventory: { cluster_id: 'c-3' } });
  });

  it('is shown once this console registers the pending cluster, and asked for from then on', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/clusters/c-1', { status: 200, body: pending('c-1') });
    api.on('GET /api/v1/clusters/c-1/inventory', { status: 200, body: snapshot });
    const result: RegistrationResult = {
      cluster_id: 'c-1',
      server: 'https://k8s:6443',
      namespace: 'navin-platform',
      kubernetes_version: 'v1.30.0',
      inventory: snapshot.inventory,
      taken_at: snapshot.taken_at,
    };
    api.on('POST /api/v1/clusters/c-1/kubernetes/registration', { status: 200, body: result });
    const client = makeClient(api);
    const page = createClusterPageStore({ client, eventDebounceMs: 0 });
    const setup = createClusterSetupStore({ client, onRegistered: (r) => page.getState().showRegistration(r) });
    const stop = page.getState().startLive();
    await page.getState().open('c-1');
    expect(page.getState().inventoryStatus).toBe('missing');

    setup.getState().bind('c-1');
    expect(await setup.getState().register('apiVersion: v1', 'navin-platform')).toEqual(result);
    expect(page.getState()).toMatchObject({ inventoryStatus: 'ready', inventory: { source: 'import', taken_at: snapshot.taken_at } });
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/inventory')).toHaveLength(0);

    api.emit({ type: 'cluster.changed', data: { id: 'c-1' } });
    await new Promise((r) => setTimeout(r, 20));
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/inventory')).toHaveLength(1);
    stop();
  });
});

describe('CoreDNS on the cluster page', () => {
  const withCoredns = (coredns: Inventory['coredns'], source: InventorySnapshot['source'], taken_at: string): InventorySnapshot => ({
    ...snapshot,
    source,
    taken_at,
    inventory: { ...snapshot.inventory, coredns },
  });
  const imported = withCoredns({ replicas: 2, ready_replicas: 2 }, 'import', '2026-01-01T00:00:00Z');
  const reported = withCoredns(null, 'agent', '2026-01-02T00:00:00Z');

  it('comes from the newest snapshot that looked for it: the import one when the agent’s does not carry it', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/clusters/c-1', { status: 200, body: { ...cluster('edge', { id: 'c-1', state: 'connected' }), agent: agent() } });
    api.on('GET /api/v1/clusters/c-1/inventory', { status: 200, body: imported });
    const store = createClusterPageStore({ client: makeClient(api), eventDebounceMs: 0 });
    const stop = store.getState().startLive();
    await store.getState().open('c-1');
    expect(store.getState().coredns).toEqual({
      coredns: { replicas: 2, ready_replicas: 2 },
      taken_at: imported.taken_at,
      source: 'import',
    });

    // The agent's inventory replaces the import one; its identity may not read CoreDNS.
    api.on('GET /api/v1/clusters/c-1/inventory', { status: 200, body: reported });
    api.emit({ type: 'cluster.changed', data: { id: 'c-1' } });
    await new Promise((r) => setTimeout(r, 20));
    expect(store.getState().inventory?.source).toBe('agent');
    expect(store.getState().coredns).toMatchObject({ coredns: { replicas: 2, ready_replicas: 2 }, source: 'import' });

    // Another cluster's page, then this one again: still known.
    api.on('GET /api/v1/clusters/c-2', { status: 200, body: { ...cluster('other', { id: 'c-2', state: 'connected' }), agent: agent() } });
    await store.getState().open('c-2');
    await store.getState().open('c-1');
    expect(store.getState().coredns).toMatchObject({ source: 'import' });
    stop();
  });

  it('keeps the newest reading; an agent that reads CoreDNS, or a new import read, replaces it', () => {
    const kept = corednsAfter(null, imported);
    expect(corednsAfter(kept, reported)).toBe(kept);
    expect(corednsAfter(null, reported)).toBeNull();
    const agentRead = withCoredns({ replicas: 2, ready_replicas: 1 }, 'agent', '2026-01-03T00:00:00Z');
    expect(corednsAfter(kept, agentRead)).toMatchObject({ coredns: { ready_replicas: 1 }, source: 'agent' });
    expect(corednsAfter(kept, withCoredns(null, 'import', '2026-01-04T00:00:00Z'))).toMatchObject({ coredns: null, source: 'import' });
    expect(corednsAfter(corednsAfter(null, agentRead), imported)).toMatchObject({ source: 'agent' });
  });

  it('shows the import reading under the agent’s snapshot, and says when the agent did not read it', () => {
    const html = renderToStaticMarkup(createElement(Coredns, { reading: corednsAfter(null, imported), snapshot: reported }));
    expect(html).toContain('2 of 2 replicas ready');
    expect(html).toContain('data-testid="coredns-from"');
    expect(html).toContain('with the import identity');
    const same = renderToStaticMarkup(createElement(Coredns, { reading: corednsAfter(null, imported), snapshot: imported }));
    expect(same).not.toContain('coredns-from');
    expect(renderToStaticMarkup(createElement(Coredns, { reading: null, snapshot: reported }))).toContain('Not read');
    const absent = withCoredns(null, 'import', imported.taken_at);
    expect(renderToStaticMarkup(createElement(Coredns, { reading: corednsAfter(null, absent), snapshot: absent }))).toContain('Not found');
  });
});

describe('cluster setup store (import and agent wizards)', () => {
  it('serves the RBAC YAML as text for the namespace asked', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/clusters/c-1/kubernetes/import-rbac?namespace=ops', { status: 200, body: 'kind: Namespace\n' });
    const store = createClusterSetupStore({ client: makeClient(api) });
    store.getState().bind('c-1');
    await store.getState().loadRbac('ops');
    expect(store.getState().rbac).toMatchObject({ status: 'ready', key: 'ops', text: 'kind: Namespace\n' });
  });

  it('keeps the registration’s refusal with its code and details', async () => {
    const api = new FakeApi();
    api.on('POST /api/v1/clusters/c-1/kubernetes/registration', {
      status: 422,
      body: {
        error: {
          code: 'permission_missing',
          message: 'the token may not list nodes',
          details: { permission: { verb: 'list', resource: 'nodes', group: '' } },
        },
      },
    });
    const store = createClusterSetupStore({ client: makeClient(api) });
    store.getState().bind('c-1');
    expect(await store.getState().register('apiVersion: v1', 'navin-platform')).toBeNull();
    expect(store.getState().registration.error).toMatchObject({
      code: 'permission_missing',
      status: 422,
      details: { permission: { verb: 'list' } },
    });
    expect(api.calls.at(-1)?.body).toEqual({ kubeconfig: 'apiVersion: v1', namespace: 'navin-platform' });
  });

  it('holds the identity files until told they are saved, and forgets them with the cluster', async () => {
    const api = new FakeApi();
    const files = { 'config.json': '{}', 'manager.pem': 'PEM', 'tls.crt': 'CRT', 'tls.key': 'KEY', 'ca.crt': 'CA' };
    api.on('POST /api/v1/clusters/c-1/kubernetes/agent', {
      status: 201,
      body: {
        cluster_id: 'c-1',
        serial: 's1',
        not_after: '2027-01-01T00:00:00Z',
        revoked_serials: [],
        files,
        config: {},
        secret_command: 'kubectl …',
      },
    });
    const store = createClusterSetupStore({ client: makeClient(api) });
    store.getState().bind('c-1');
    const identity = await store.getState().issueIdentity({ gateway_url: 'https://gw:8462', server_name: 'localhost' });
    expect(identity?.files['tls.key']).toBe('KEY');
    store.getState().markSaved('tls.key');
    store.getState().markSaved('tls.key');
    expect(store.getState().identity.saved).toEqual(['tls.key']);
    store.getState().bind('c-2');
    expect(store.getState().identity.result).toBeNull();
  });

  it('shows the manager’s refusal of an image pinned by tag', async () => {
    const api = new FakeApi();
    api.on(
      'GET /api/v1/clusters/c-1/kubernetes/agent/manifests?image=reg%2Fagent%3A1',
      apiError(400, 'invalid_field', 'pinned by tag', 'image'),
    );
    const store = createClusterSetupStore({ client: makeClient(api) });
    store.getState().bind('c-1');
    await store.getState().loadManifests('reg/agent:1');
    expect(store.getState().manifests).toMatchObject({ status: 'error', error: { field: 'image' } });
  });
});
