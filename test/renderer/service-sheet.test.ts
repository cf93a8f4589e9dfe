// The component sheet's store: the sheet of the open service reloaded on its cluster's host reports only, a refresh
// that asks the agents (operators) or reads again (viewers), the metrics window, the journals followed by a timer
// that stops with the tab, their search; and the settings that differ between two configuration versions.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServiceConfigVersion, ServiceLog } from '../../preload/api';
import { settingsDiff } from '../../renderer/src/features/service-sheet/SheetConfiguration';
import { createServiceSheetStore, FOLLOW_INTERVAL_MS, searchLogs } from '../../renderer/src/features/service-sheet/store';
import { FakeApi, flush, makeClient } from './support/fake-api';

const SHEET = '/api/v1/clusters/c-1/services/etcd/sheet';
const sheet = (state: string) => ({ status: 200, body: { service: 'etcd', overview: { state }, unobserved: {} } });

describe('the service sheet store', () => {
  afterEach(() => vi.useRealTimers());

  it('loads the sheet, reloads it when a host of its cluster reports, and ignores other clusters', async () => {
    const api = new FakeApi();
    let state = 'running';
    api.on(`GET ${SHEET}`, () => sheet(state));
    const store = createServiceSheetStore({ client: makeClient(api), eventDebounceMs: 5 });
    const stop = store.getState().startLive();
    await store.getState().open('c-1', 'etcd');
    expect(store.getState().sheet.value!.overview.state).toBe('running');
    state = 'stopped';
    api.emit({ type: 'host.changed', data: { id: 'h-9', cluster_id: 'c-2' } });
    await new Promise((r) => setTimeout(r, 30));
    expect(api.callsTo('GET', SHEET)).toHaveLength(1);
    api.emit({ type: 'host.changed', data: { id: 'h-1', cluster_id: 'c-1' } });
    await new Promise((r) => setTimeout(r, 30));
    await flush();
    expect(store.getState().sheet.value!.overview.state).toBe('stopped');
    stop();
  });

  it('Refresh asks the agents for an operator, and only reads again for a viewer', async () => {
    const api = new FakeApi();
    api.on(`GET ${SHEET}`, sheet('running'));
    api.on(`POST ${SHEET}/refresh`, sheet('stopped'));
    const store = createServiceSheetStore({ client: makeClient(api) });
    await store.getState().open('c-1', 'etcd');
    await store.getState().refresh(false);
    expect(api.callsTo('POST', `${SHEET}/refresh`)).toHaveLength(0);
    await store.getState().refresh(true);
    expect(store.getState().sheet.value!.overview.state).toBe('stopped');
    expect(store.getState().refreshing).toBe(false);
  });

  it('the metrics window is part of the call', async () => {
    const api = new FakeApi();
    api.on(`GET ${SHEET}`, sheet('running'));
    api.on('GET /api/v1/clusters/c-1/services/etcd/metrics?minutes=15', {
      status: 200,
      body: { minutes: 15, series: [], unobserved: null },
    });
    const store = createServiceSheetStore({ client: makeClient(api) });
    await store.getState().open('c-1', 'etcd');
    await store.getState().loadMetrics(15);
    expect(api.calls.at(-1)!.path).toBe('/api/v1/clusters/c-1/services/etcd/metrics?minutes=15');
    expect(store.getState().metrics.value).toMatchObject({ minutes: 15, unobserved: null });
    expect(store.getState().minutes).toBe(15);
  });

  it('following reads the journals every few seconds, one read at a time, until it is turned off', async () => {
    vi.useFakeTimers();
    const api = new FakeApi();
    api.on(`GET ${SHEET}`, sheet('running'));
    api.on('POST /api/v1/clusters/c-1/services/etcd/logs', { status: 200, body: { items: [] } });
    const store = createServiceSheetStore({ client: makeClient(api) });
    await store.getState().open('c-1', 'etcd');
    store.getState().follow(true);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 2 + 10);
    const reads = api.callsTo('POST', '/api/v1/clusters/c-1/services/etcd/logs').length;
    expect(reads).toBe(3);
    store.getState().follow(false);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 3);
    expect(api.callsTo('POST', '/api/v1/clusters/c-1/services/etcd/logs')).toHaveLength(reads);
    // Another service opened: the timer of the first is gone too.
    store.getState().follow(true);
    await store.getState().open('c-1', 'nats');
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 3);
    expect(api.callsTo('POST', '/api/v1/clusters/c-1/services/etcd/logs')).toHaveLength(reads + 1);
  });
});

describe('the sheet’s pure parts', () => {
  it('searches the journal lines, case-insensitively, per host', () => {
    const log = (host: string, text: string): ServiceLog => ({
      host_id: host,
      host_name: host,
      unit: 'navin-etcd.service',
      state: 'succeeded',
      code: null,
      text,
      read_at: '2026-12-04T10:00:00Z',
    });
    const found = searchLogs([log('a', 'ready to serve\nslow apply\n'), log('b', 'SLOW read\n')], 'slow');
    expect(found.map((f) => f.lines)).toEqual([['slow apply'], ['SLOW read']]);
    expect(searchLogs([log('a', 'x\n\ny\n')], '  ')[0]!.lines).toEqual(['x', 'y']);
  });

  it('the settings that differ between two configuration versions, added and removed ones included', () => {
    const v = (n: number, config: Record<string, string | number | boolean>): ServiceConfigVersion => ({
      cluster_id: 'c-1',
      service: 'nats',
      number: n,
      config,
      operation_id: 'op',
      restored_from: null,
      created_at: '2026-12-04T10:00:00Z',
    });
    expect(settingsDiff(v(1, { max_payload: 1024, jetstream: true }), v(2, { max_payload: 2048, debug: false, jetstream: true }))).toEqual([
      { key: 'debug', from: '—', to: 'false' },
      { key: 'max_payload', from: '1024', to: '2048' },
    ]);
  });
});
