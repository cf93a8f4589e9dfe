import { describe, expect, it, vi } from 'vitest';
import { createSessionStore, parseLaunchHash, selectCanWrite } from '../../renderer/src/features/session/store';
import { FakeApi, alice, apiError, makeClient, sessionOf } from './support/fake-api';

function setup(configure: (api: FakeApi) => void = () => undefined) {
  const api = new FakeApi();
  api.on('GET /api/v1/session', apiError(401, 'unauthenticated')).on('GET /api/v1/setup', { status: 200, body: { needed: false } });
  configure(api);
  const client = makeClient(api);
  const order: string[] = [];
  const clearLaunchHash = vi.fn(() => order.push('clear'));
  const store = createSessionStore({ client, clearLaunchHash });
  return { api, client, store, clearLaunchHash, order };
}

describe('parseLaunchHash', () => {
  it.each([
    ['#ticket=abc', { ticket: 'abc', setup: null }],
    ['#setup=T0K', { ticket: null, setup: 'T0K' }],
    ['#/clusters', { ticket: null, setup: null }],
    ['', { ticket: null, setup: null }],
    ['#ticket=', { ticket: null, setup: null }],
    ['#setup=a%2Bb', { ticket: null, setup: 'a+b' }],
  ])('%j', (hash, expected) => {
    expect(parseLaunchHash(hash)).toEqual(expected);
  });
});

describe('session store', () => {
  it('starts anonymous without a session and learns whether setup is needed', async () => {
    const { store } = setup((api) => api.on('GET /api/v1/setup', { status: 200, body: { needed: true } }));
    expect(store.getState().status).toBe('booting');
    await store.getState().bootstrap('');
    expect(store.getState()).toMatchObject({ status: 'anonymous', user: null, setupNeeded: true, error: null });
  });

  it('resumes an existing session and hands its CSRF token to the client', async () => {
    const { store, client } = setup((api) => api.on('GET /api/v1/session', { status: 200, body: sessionOf(alice, 'tok-9') }));
    await store.getState().bootstrap('#/clusters');
    expect(store.getState()).toMatchObject({ status: 'authenticated', user: alice, csrfToken: 'tok-9' });
    expect(client.getCsrfToken()).toBe('tok-9');
    expect(selectCanWrite(store.getState())).toBe(true);
  });

  it('a confirmed session waits for what the first screen was asked for alongside it, then signs in once', async () => {
    const { store } = setup((api) => api.on('GET /api/v1/session', { status: 200, body: sessionOf(alice, 'tok-9') }));
    let release!: () => void;
    const opening = new Promise<void>((r) => (release = r));
    const statuses: string[] = [];
    store.subscribe((s) => statuses.push(s.status));
    const done = store.getState().bootstrap('#/clusters', opening);
    await new Promise((r) => setTimeout(r, 20));
    expect(store.getState().status).toBe('booting');
    release();
    await done;
    expect(statuses).toEqual(['authenticated']);
  });

  it('a ticket link opened while start-up waits for its first screen wins over the session found before it', async () => {
    const bob = { ...alice, id: 'u-2', name: 'bob', role: 'operator' as const };
    const { store, client } = setup((api) =>
      api
        .on('GET /api/v1/session', { status: 200, body: sessionOf(alice, 'csrf-alice') })
        .on('POST /api/v1/session/ticket', { status: 200, body: sessionOf(bob, 'csrf-bob') }),
    );
    let release!: () => void;
    const opening = new Promise<void>((r) => (release = r));
    const done = store.getState().bootstrap('#/clusters', opening);
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.getState().openLaunchLink('#ticket=BOB')).toBe(true);
    release();
    await done;
    expect(store.getState()).toMatchObject({ status: 'authenticated', user: bob, csrfToken: 'csrf-bob' });
    expect(client.getCsrfToken()).toBe('csrf-bob');
  });

  it('without a session, the login screen does not wait for what was asked for alongside', async () => {
    const { store } = setup();
    await store.getState().bootstrap('', new Promise(() => undefined));
    expect(store.getState().status).toBe('anonymous');
  });

  it('shows a network failure on the login screen', async () => {
    const { store } = setup((api) => api.on('GET /api/v1/session', () => Promise.reject(new Error('down'))));
    await store.getState().bootstrap('');
    expect(store.getState().status).toBe('anonymous');
    expect(store.getState().error?.code).toBe('bridge_error');
  });

  it('exchanges a #ticket= link after clearing it from the address bar', async () => {
    const { store, api, order } = setup((a) =>
      a.on('POST /api/v1/session/ticket', (req) => {
        order.push('exchange');
        expect(req.body).toEqual({ ticket: 'TICKET-1' });
        return { status: 200, body: sessionOf() };
      }),
    );
    await store.getState().bootstrap('#ticket=TICKET-1');
    expect(order).toEqual(['clear', 'exchange']);
    expect(store.getState().status).toBe('authenticated');
    expect(api.callsTo('GET', '/api/v1/session')).toHaveLength(0);
  });

  it('falls back to the login screen with the error of a used ticket', async () => {
    const { store } = setup((a) => a.on('POST /api/v1/session/ticket', apiError(401, 'invalid_credentials', 'ticket used')));
    await store.getState().bootstrap('#ticket=OLD');
    expect(store.getState()).toMatchObject({ status: 'anonymous', pending: false });
    expect(store.getState().error?.code).toBe('invalid_credentials');
  });

  it('creates the first admin from a #setup= link', async () => {
    const { store, clearLaunchHash, api } = setup((a) =>
      a
        .on('GET /api/v1/setup', { status: 200, body: { needed: true } })
        .on('POST /api/v1/setup', { status: 200, body: sessionOf({ ...alice, name: 'root' }) }),
    );
    await store.getState().bootstrap('#setup=SETUP-TOKEN');
    expect(clearLaunchHash).toHaveBeenCalledOnce();
    expect(store.getState()).toMatchObject({ status: 'setup', setupToken: 'SETUP-TOKEN' });
    expect(await store.getState().setup('root', 'long-password')).toBe(true);
    expect(api.callsTo('POST', '/api/v1/setup')[0]?.body).toEqual({ token: 'SETUP-TOKEN', name: 'root', password: 'long-password' });
    expect(store.getState()).toMatchObject({ status: 'authenticated', setupToken: null });
  });

  it('keeps the setup screen with the error of a bad token', async () => {
    const { store } = setup((a) =>
      a.on('GET /api/v1/setup', { status: 200, body: { needed: true } }).on('POST /api/v1/setup', apiError(403, 'setup_token_invalid')),
    );
    await store.getState().bootstrap('#setup=WRONG');
    expect(await store.getState().setup('root', 'pw')).toBe(false);
    expect(store.getState().status).toBe('setup');
    expect(store.getState().error?.code).toBe('setup_token_invalid');
  });

  it('goes to sign-in when the setup link comes after setup is done', async () => {
    const { store } = setup();
    await store.getState().bootstrap('#setup=LATE');
    expect(store.getState()).toMatchObject({ status: 'anonymous', notice: 'setup_done', setupToken: null });
  });

  it('signs in, and shows invalid_credentials and account_locked with their codes', async () => {
    let answer = apiError(401, 'invalid_credentials');
    const { store, api } = setup((a) => a.on('POST /api/v1/session', () => answer));
    await store.getState().bootstrap('');
    expect(await store.getState().login('alice', 'wrong')).toBe(false);
    expect(store.getState()).toMatchObject({ status: 'anonymous', pending: false });
    expect(store.getState().error).toMatchObject({ code: 'invalid_credentials', status: 401 });
    answer = apiError(423, 'account_locked');
    await store.getState().login('alice', 'wrong');
    expect(store.getState().error).toMatchObject({ code: 'account_locked', status: 423 });
    answer = { status: 200, body: sessionOf() };
    expect(await store.getState().login('alice', 'right')).toBe(true);
    expect(store.getState()).toMatchObject({ status: 'authenticated', error: null });
    expect(api.callsTo('POST', '/api/v1/session').at(-1)?.body).toEqual({ name: 'alice', password: 'right' });
  });

  it('signs out: DELETE /session, CSRF forgotten, even when the server fails', async () => {
    const { store, client, api } = setup((a) =>
      a.on('GET /api/v1/session', { status: 200, body: sessionOf() }).on('DELETE /api/v1/session', apiError(500, 'internal')),
    );
    await store.getState().bootstrap('');
    await store.getState().logout();
    expect(api.callsTo('DELETE', '/api/v1/session')[0]?.csrf).toBe('csrf-1');
    expect(store.getState()).toMatchObject({ status: 'anonymous', user: null, csrfToken: null, notice: 'signed_out' });
    expect(client.getCsrfToken()).toBeNull();
  });

  it('expires when any call answers 401 unauthenticated', async () => {
    const { store, client } = setup((a) =>
      a.on('GET /api/v1/session', { status: 200, body: sessionOf() }).on('GET /api/v1/clusters', apiError(401, 'unauthenticated')),
    );
    await store.getState().bootstrap('');
    await client.listClusters().catch(() => undefined);
    expect(store.getState()).toMatchObject({ status: 'anonymous', notice: 'session_expired' });
  });

  it('bootstraps once (a one-time ticket is never sent twice)', async () => {
    const { store, api } = setup((a) => a.on('POST /api/v1/session/ticket', { status: 200, body: sessionOf() }));
    await Promise.all([store.getState().bootstrap('#ticket=ONCE'), store.getState().bootstrap('#ticket=ONCE')]);
    expect(api.callsTo('POST', '/api/v1/session/ticket')).toHaveLength(1);
  });

  it('handles a setup link pasted into the open console (hash change, no reload)', async () => {
    const { store, clearLaunchHash } = setup((a) => a.on('GET /api/v1/setup', { status: 200, body: { needed: true } }));
    await store.getState().bootstrap('');
    expect(store.getState()).toMatchObject({ status: 'anonymous', setupNeeded: true });
    expect(await store.getState().openLaunchLink('#/clusters')).toBe(false);
    expect(clearLaunchHash).not.toHaveBeenCalled();
    expect(await store.getState().openLaunchLink('#setup=PASTED')).toBe(true);
    expect(clearLaunchHash).toHaveBeenCalledOnce();
    expect(store.getState()).toMatchObject({ status: 'setup', setupToken: 'PASTED' });
  });

  it('handles a ticket link pasted into the open console', async () => {
    const { store, api } = setup((a) => a.on('POST /api/v1/session/ticket', apiError(401, 'ticket_invalid')));
    await store.getState().bootstrap('');
    expect(await store.getState().openLaunchLink('#ticket=USED')).toBe(true);
    expect(store.getState()).toMatchObject({ status: 'anonymous' });
    expect(store.getState().error?.code).toBe('ticket_invalid');
    api.on('POST /api/v1/session/ticket', { status: 200, body: sessionOf() });
    await store.getState().openLaunchLink('#ticket=FRESH');
    expect(store.getState()).toMatchObject({ status: 'authenticated', error: null });
    // a used link opened while signed in keeps the session
    api.on('POST /api/v1/session/ticket', apiError(401, 'ticket_invalid'));
    await store.getState().openLaunchLink('#ticket=USED');
    expect(store.getState().status).toBe('authenticated');
  });

  it('a viewer cannot write', async () => {
    const { store } = setup((a) => a.on('GET /api/v1/session', { status: 200, body: sessionOf({ ...alice, role: 'viewer' }) }));
    await store.getState().bootstrap('');
    expect(selectCanWrite(store.getState())).toBe(false);
  });
});
