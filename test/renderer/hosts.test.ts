// The Hosts tab's store: hosts loaded for the open cluster, reloaded on pushed host events of that cluster only,
// a host added, and an identity issued (kept until closed) or its refusal shown.
import { describe, expect, it } from 'vitest';
import type { HostView } from '../../preload/api';
import { createHostsStore } from '../../renderer/src/features/hosts/store';
import { FakeApi, apiError, flush, makeClient } from './support/fake-api';

const host = (name: string, patch: Partial<HostView> = {}): HostView => ({
  id: `h-${name}`,
  cluster_id: 'c-1',
  name,
  address: '10.0.0.1',
  facts: null,
  facts_at: null,
  managed: null,
  created_at: '2026-01-01T00:00:00Z',
  state: 'pending',
  agent: { connected: false, last_seen: null, offline_since: null, agent_version: null, certificate_serial: null },
  ...patch,
});

describe('hosts store', () => {
  it('loads the hosts of the open cluster and reloads on its host events, not on another cluster’s', async () => {
    const api = new FakeApi();
    let items = [host('node-1')];
    api.on('GET /api/v1/clusters/c-1/hosts', () => ({ status: 200, body: { items } }));
    const store = createHostsStore({ client: makeClient(api) });
    const stop = store.getState().startLive();
    await store.getState().open('c-1');
    expect(store.getState()).toMatchObject({ status: 'ready', items: [{ name: 'node-1' }] });
    items = [host('node-1', { state: 'connected' })];
    api.emit({ type: 'host.changed', data: { id: 'h-x', cluster_id: 'c-2' } });
    await new Promise((r) => setTimeout(r, 400));
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/hosts')).toHaveLength(1);
    api.emit({ type: 'host.changed', data: { id: 'h-node-1', cluster_id: 'c-1' } });
    await new Promise((r) => setTimeout(r, 400));
    expect(store.getState().items[0]!.state).toBe('connected');
    stop();
  });

  it('adds a host and issues an identity kept until closed; a refusal is shown with its code', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/clusters/c-1/hosts', { status: 200, body: { items: [] } });
    api.on('POST /api/v1/clusters/c-1/hosts', (req) => ({ status: 201, body: host((req.body as { name: string }).name) }));
    api.on('POST /api/v1/hosts/h-node-1/agent', {
      status: 201,
      body: { host_id: 'h-node-1', install_commands: ['apt-get install ./x.deb'], files: {} },
    });
    api.on('POST /api/v1/hosts/h-bad/agent', apiError(400, 'invalid_field', 'gateway_url must use https://', 'gateway_url'));
    const store = createHostsStore({ client: makeClient(api) });
    await store.getState().open('c-1');
    expect(await store.getState().add('node-1', '10.0.0.1')).toBe(true);
    expect(api.callsTo('POST', '/api/v1/clusters/c-1/hosts')[0]!.body).toEqual({ name: 'node-1', address: '10.0.0.1' });
    expect(await store.getState().issueIdentity('h-node-1', 'https://m:8462')).toBe(true);
    expect(store.getState().identity).toMatchObject({ hostId: 'h-node-1', value: { install_commands: ['apt-get install ./x.deb'] } });
    store.getState().closeIdentity();
    expect(store.getState().identity).toBeNull();
    expect(await store.getState().issueIdentity('h-bad', 'http://m')).toBe(false);
    await flush();
    expect(store.getState().issuing).toMatchObject({ hostId: 'h-bad', error: { code: 'invalid_field' } });
  });
});
