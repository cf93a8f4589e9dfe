// The Mirror screen's store: loading the contents, imports and keys; starting an import and following it by
// the manager's progress events to its end; refusals and key changes as typed errors.
import { describe, expect, it } from 'vitest';
import type { MirrorImportView } from '../../preload/api';
import { createMirrorStore } from '../../renderer/src/features/mirror/store';
import { FakeApi, apiError, flush, makeClient } from './support/fake-api';

const record = (patch: Partial<MirrorImportView> = {}): MirrorImportView => ({
  id: 'i-1',
  bundle_file: '/media/usb/bundle.tar',
  bundle_id: null,
  key_id: null,
  mirror_url: 'https://mirror.internal:5000',
  state: 'running',
  code: null,
  message: null,
  result: null,
  started_by: 'alice',
  started_at: '2026-12-01T10:00:00Z',
  finished_at: null,
  progress: null,
  ...patch,
});

const inventory = { mirror: 'https://mirror.internal:5000', artifacts: [], images: [] };

describe('mirror store', () => {
  it('starts an import, shows its progress from events, and reloads the list and contents when it ends', async () => {
    const api = new FakeApi();
    let imports: MirrorImportView[] = [];
    api
      .on('GET /api/v1/mirror', { status: 200, body: inventory })
      .on('GET /api/v1/mirror/imports', () => ({ status: 200, body: { items: imports } }))
      .on('GET /api/v1/settings/release-keys', { status: 200, body: { keys: [] } })
      .on('POST /api/v1/mirror/imports', (req) => {
        imports = [record({ bundle_file: (req.body as { path: string }).path })];
        return { status: 202, body: imports[0] };
      });
    const client = makeClient(api);
    const store = createMirrorStore({ client, eventDebounceMs: 0 });
    const stop = store.getState().startLive();
    await store.getState().load();
    expect(store.getState()).toMatchObject({ inventoryStatus: 'ready', imports: [], current: null });

    expect(await store.getState().startImport('/media/usb/bundle.tar')).toBe(true);
    expect(api.callsTo('POST', '/api/v1/mirror/imports')[0]!.body).toEqual({ path: '/media/usb/bundle.tar' });
    expect(store.getState().current).toMatchObject({ id: 'i-1', state: 'running' });

    const progress = {
      phase: 'uploading' as const,
      bytes_done: 50,
      bytes_total: 100,
      blobs_done: 1,
      blobs_total: 3,
      tags_done: 0,
      tags_total: 2,
    };
    api.emit({ type: 'mirror.import.progress', data: { id: 'i-1', ...progress } });
    expect(store.getState().progress).toEqual(progress);

    imports = [record({ state: 'done', message: '2 tags pushed', finished_at: '2026-12-01T10:01:00Z' })];
    const before = api.callsTo('GET', '/api/v1/mirror').length;
    api.emit({ type: 'mirror.import.changed', data: { id: 'i-1' } });
    await new Promise((r) => setTimeout(r, 10));
    await flush();
    expect(store.getState().current).toMatchObject({ id: 'i-1', state: 'done' });
    expect(api.callsTo('GET', '/api/v1/mirror').length).toBe(before + 1);
    stop();
  });

  it('a refused start keeps its code; a refused import shows its code on the record', async () => {
    const api = new FakeApi();
    api.on('POST /api/v1/mirror/imports', apiError(409, 'import_running', 'an import is already running'));
    const store = createMirrorStore({ client: makeClient(api) });
    expect(await store.getState().startImport('/b.tar')).toBe(false);
    expect(store.getState().starting.error).toMatchObject({ code: 'import_running', status: 409 });

    api.on('GET /api/v1/mirror/imports', { status: 200, body: { items: [record({ state: 'refused', code: 'digest_mismatch' })] } });
    await store.getState().loadImports();
    // The one running when the screen opened is followed; a finished one is listed, not made current.
    expect(store.getState().current).toBeNull();
    expect(store.getState().imports[0]).toMatchObject({ code: 'digest_mismatch' });
  });

  it('trusts and removes release keys, reloading the list; a manager key is refused with its code', async () => {
    const api = new FakeApi();
    let keys: { key_id: string; label: string }[] = [];
    api
      .on('GET /api/v1/settings/release-keys', () => ({ status: 200, body: { keys } }))
      .on('POST /api/v1/settings/release-keys', (req) => {
        const b = req.body as { public_key_pem: string; label: string };
        if (b.public_key_pem === 'MANAGER') return apiError(409, 'release_key_is_manager_key');
        keys = [{ key_id: 'k1', label: b.label }];
        return { status: 201, body: keys[0] };
      })
      .on('DELETE /api/v1/settings/release-keys/k1', () => {
        keys = [];
        return { status: 204, body: null };
      });
    const store = createMirrorStore({ client: makeClient(api) });
    expect(await store.getState().trustKey('PEM', 'ops')).toBe(true);
    expect(store.getState().keys).toEqual([{ key_id: 'k1', label: 'ops' }]);
    expect(await store.getState().trustKey('MANAGER', '')).toBe(false);
    expect(store.getState().keyChange.error?.code).toBe('release_key_is_manager_key');
    expect(await store.getState().untrustKey('k1')).toBe(true);
    expect(store.getState().keys).toEqual([]);
  });
});
