// The tokens store of the Users screen: lists a user's tokens, keeps a new token's secret only in `created`
// (never in the list), marks a revoked one, and shows the manager's refusal.
import { describe, expect, it } from 'vitest';
import type { ApiToken } from '../../preload/api';
import { createTokensStore } from '../../renderer/src/features/settings/tokensStore';
import { FakeApi, apiError, makeClient } from './support/fake-api';

const token = (id: string, state: ApiToken['state'] = 'active'): ApiToken => ({
  id,
  user: 'vera',
  name: null,
  created_at: '2026-01-01T00:00:00Z',
  created_by: 'ada',
  expires_at: '2026-04-01T00:00:00Z',
  revoked_at: state === 'revoked' ? '2026-02-01T00:00:00Z' : null,
  revoked_by: state === 'revoked' ? 'ada' : null,
  state,
});

describe('tokens store', () => {
  it('lists, creates (secret only in created) and revokes', async () => {
    const api = new FakeApi()
      .on('GET /api/v1/users/vera/tokens', { status: 200, body: { items: [token('a1')] } })
      .on('POST /api/v1/users/vera/tokens', { status: 201, body: { ...token('b2'), name: 'ci', token: 'navin_secret' } })
      .on('DELETE /api/v1/users/vera/tokens/a1', { status: 200, body: token('a1', 'revoked') });
    const store = createTokensStore({ client: makeClient(api) });
    await store.getState().open('vera');
    expect(store.getState()).toMatchObject({ status: 'ready', user: 'vera' });
    const made = await store.getState().create({ expires: '30d', name: 'ci' });
    expect(made?.token).toBe('navin_secret');
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ expires: '30d', name: 'ci' });
    expect(store.getState().items.map((t) => t.id)).toEqual(['b2', 'a1']);
    expect(JSON.stringify(store.getState().items)).not.toContain('navin_secret');
    expect(store.getState().created?.token).toBe('navin_secret');
    store.getState().dismissCreated();
    expect(store.getState().created).toBeNull();
    expect(await store.getState().revoke('a1')).toBe(true);
    expect(store.getState().items.find((t) => t.id === 'a1')?.state).toBe('revoked');
  });

  it('keeps the refusal of a creation, and forgets everything on close', async () => {
    const api = new FakeApi()
      .on('GET /api/v1/users/vera/tokens', { status: 200, body: { items: [] } })
      .on('POST /api/v1/users/vera/tokens', apiError(400, 'invalid_field', 'expires is a lifetime', 'expires'));
    const store = createTokensStore({ client: makeClient(api) });
    await store.getState().open('vera');
    expect(await store.getState().create({ expires: '999d' })).toBeNull();
    expect(store.getState().creation.error).toMatchObject({ code: 'invalid_field', field: 'expires' });
    store.getState().close();
    expect(store.getState()).toMatchObject({ user: null, items: [], created: null });
  });
});
