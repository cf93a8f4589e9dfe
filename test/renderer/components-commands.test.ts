import { describe, expect, it } from 'vitest';
import type { CommandView, ComponentsView } from '../../renderer/src/api/types';
import {
  commandNamespace,
  commandTarget,
  createCommandsStore,
  selectVisibleCommands,
  sortCommands,
} from '../../renderer/src/features/commands/store';
import { componentRows, createComponentsStore, selectComponentRows, specDifferences } from '../../renderer/src/features/components/store';
import { FakeApi, apiError, makeClient } from './support/fake-api';

const wait = (ms = 15) => new Promise((r) => setTimeout(r, ms));

function command(id: string, over: Partial<CommandView> = {}): CommandView {
  return {
    id,
    cluster_id: 'c-1',
    op: 'managedcomponent.apply',
    args: { name: 'opa-main', spec: { component: 'opa', version: '1' }, desired_state: { payload: { namespace: 'ops' } } },
    state: 'queued',
    code: null,
    result: null,
    requested_by: 'alice',
    created_at: `2026-01-01T00:00:0${id.slice(-1)}Z`,
    not_after: '2026-01-01T00:15:00Z',
    delivered_at: null,
    deliveries: 0,
    completed_at: null,
    receipts: [],
    ...over,
  };
}

describe('components store', () => {
  it('applies and deletes through signed commands, then reloads the desired state', async () => {
    const api = new FakeApi();
    let view: ComponentsView = { cluster_id: 'c-1', generation: 0, desired: {} };
    api.on('GET /api/v1/clusters/c-1/components', () => ({ status: 200, body: view }));
    api.on('POST /api/v1/clusters/c-1/components', (req) => {
      view = { cluster_id: 'c-1', generation: 1, desired: { 'opa-main': (req.body as { spec: never }).spec } };
      return { status: 202, body: command('k1') };
    });
    api.on('DELETE /api/v1/clusters/c-1/components/opa-main', { status: 202, body: command('k2', { op: 'managedcomponent.delete' }) });
    const store = createComponentsStore({ client: makeClient(api) });
    await store.getState().load('c-1');
    expect(selectComponentRows(store.getState())).toEqual([]);
    const sent = await store.getState().applyComponent('opa-main', { component: 'opa', version: '1.0' });
    expect(sent?.id).toBe('k1');
    expect(api.callsTo('POST', '/api/v1/clusters/c-1/components')[0]?.body).toEqual({
      name: 'opa-main',
      spec: { component: 'opa', version: '1.0' },
    });
    await wait(0);
    expect(store.getState().view?.generation).toBe(1);
    expect(store.getState().apply).toMatchObject({ pending: false, name: 'opa-main', command: { id: 'k1' } });
    expect((await store.getState().removeComponent('opa-main'))?.op).toBe('managedcomponent.delete');
  });

  it('keeps the manager’s field of a refused spec', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/clusters/c-1/components', { status: 200, body: { cluster_id: 'c-1', generation: 0, desired: {} } });
    api.on('POST /api/v1/clusters/c-1/components', apiError(400, 'invalid_field', 'spec.version is required', 'spec.version'));
    const store = createComponentsStore({ client: makeClient(api) });
    await store.getState().load('c-1');
    expect(await store.getState().applyComponent('x', { component: 'opa', version: '' })).toBeNull();
    expect(store.getState().apply.error).toMatchObject({ code: 'invalid_field', field: 'spec.version' });
  });

  it('follows command.changed and cluster.changed of its cluster', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/clusters/c-1/components', { status: 200, body: { cluster_id: 'c-1', generation: 0, desired: {} } });
    const store = createComponentsStore({ client: makeClient(api), eventDebounceMs: 1 });
    const stop = store.getState().startLive();
    await store.getState().load('c-1');
    api.emit({ type: 'command.changed', data: { cluster_id: 'c-2' } });
    await wait();
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/components')).toHaveLength(1);
    api.emit({ type: 'cluster.changed', data: { id: 'c-1' } });
    await wait();
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/components')).toHaveLength(2);
    stop();
  });

  it('puts desired and observed side by side, and names what differs', () => {
    const view: ComponentsView = {
      cluster_id: 'c-1',
      generation: 3,
      desired: {
        a: { component: 'opa', version: '1' },
        b: { component: 'nats', version: '2', replicas: 3 },
        c: { component: 'etcd', version: '3' },
      },
      observed: {
        a: { spec: { version: '1', component: 'opa' }, status: null },
        b: { spec: { component: 'nats', version: '2', replicas: 1 }, status: null },
        z: { spec: { component: 'opa', version: '0' }, status: null },
      },
      observed_at: '2026-01-01T00:00:00Z',
    };
    expect(componentRows(view).map((r) => [r.name, r.drift, r.differences])).toEqual([
      ['a', 'in_sync', []],
      ['b', 'differs', ['replicas']],
      ['c', 'absent', []],
      ['z', 'unexpected', []],
    ]);
    expect(componentRows({ ...view, observed: null }).every((r) => r.drift === 'unknown' || r.spec === null)).toBe(true);
    expect(
      specDifferences(
        { component: 'opa', version: '1', resources: { cpu: '1', memory: '1Gi' } },
        { component: 'opa', version: '1', resources: { memory: '1Gi', cpu: '1' } },
      ),
    ).toEqual([]);
  });
});

describe('commands store', () => {
  it('lists a cluster’s commands newest first and filters by state', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/commands?cluster_id=c-1&limit=200', {
      status: 200,
      body: { items: [command('k1'), command('k3', { state: 'succeeded' }), command('k2')] },
    });
    const store = createCommandsStore({ client: makeClient(api) });
    await store.getState().setScope('c-1');
    expect(store.getState().items.map((c) => c.id)).toEqual(['k3', 'k2', 'k1']);
    store.getState().setStateFilter('succeeded');
    const visible = selectVisibleCommands(store.getState());
    expect(visible.map((c) => c.id)).toEqual(['k3']);
    expect(selectVisibleCommands(store.getState())).toBe(visible);
  });

  it('a receipt appears without a reload: command.changed with an id re-reads that command', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/commands?limit=200', { status: 200, body: { items: [command('k1')] } });
    const store = createCommandsStore({ client: makeClient(api), eventDebounceMs: 1 });
    const stop = store.getState().startLive();
    await store.getState().setScope(null);
    const receipt = { received_at: '2026-01-01T00:00:09Z', status: 'succeeded', code: null, replica: 'agent-a' };
    api.on('GET /api/v1/commands/k1', { status: 200, body: command('k1', { state: 'succeeded', receipts: [receipt] }) });
    api.emit({ type: 'command.changed', data: { id: 'k1', cluster_id: 'c-1' } });
    api.emit({ type: 'command.changed', data: { id: 'k1', cluster_id: 'c-1' } });
    await wait();
    expect(api.callsTo('GET', '/api/v1/commands/k1')).toHaveLength(1);
    expect(api.callsTo('GET', '/api/v1/commands?limit=200')).toHaveLength(1);
    expect(store.getState().items[0]).toMatchObject({ state: 'succeeded', receipts: [receipt] });
    // A delivery (no id) reloads the list.
    api.emit({ type: 'command.changed', data: { cluster_id: 'c-1' } });
    await wait();
    expect(api.callsTo('GET', '/api/v1/commands?limit=200')).toHaveLength(2);
    stop();
  });

  it('ignores other clusters’ commands when scoped', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/commands?cluster_id=c-1&limit=200', { status: 200, body: { items: [] } });
    const store = createCommandsStore({ client: makeClient(api), eventDebounceMs: 1 });
    const stop = store.getState().startLive();
    await store.getState().setScope('c-1');
    api.emit({ type: 'command.changed', data: { id: 'k9', cluster_id: 'c-2' } });
    store.getState().upsert(command('k8', { cluster_id: 'c-2' }));
    await wait();
    expect(api.calls.filter((c) => c.path.startsWith('/api/v1/commands/'))).toHaveLength(0);
    expect(store.getState().items).toEqual([]);
    stop();
  });

  it('reads the target and the managed namespace from a command’s arguments', () => {
    expect(commandTarget(command('k1'))).toBe('opa-main');
    expect(commandTarget(command('k1', { op: 'inventory.report', args: {} }))).toBeNull();
    expect(commandNamespace(command('k1'))).toBe('ops');
    expect(commandNamespace(command('k1', { args: {} }))).toBeNull();
    expect(sortCommands([command('k1'), command('k2')]).map((c) => c.id)).toEqual(['k2', 'k1']);
  });
});
