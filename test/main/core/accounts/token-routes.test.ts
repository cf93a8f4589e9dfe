// API tokens expire (90 days by default) and can be revoked: listed with their state under
// /api/v1/users/{name}/tokens, refused afterwards with 401 token_expired or token_revoked; every step audited.
import { afterEach, describe, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';
import { ManualClock } from '../../../support/clock';
import type { Credentials } from '../../../../main/core/http/router';
import { TOKEN_DEFAULT_DAYS } from '../../../../main/core/accounts/api-tokens';

const DAY = 86_400_000;
let t: TestManager | undefined;
afterEach(() => t?.close());

async function setup(): Promise<{ clock: ManualClock; admin: Credentials; viewer: Credentials }> {
  const clock = new ManualClock();
  t = testManager({ clock });
  const admin = await t.login('ada', 'admin');
  const viewer = await t.login('vera', 'viewer');
  return { clock, admin, viewer };
}
const bearer = (token: string): Credentials => ({ bearer: token });

describe('token lifetime', () => {
  test(`a token lives ${TOKEN_DEFAULT_DAYS} days by default, then gets 401 token_expired (audited)`, async () => {
    const { clock, admin } = await setup();
    const made = await t!.call('POST', '/api/v1/users/ada/tokens', {}, admin);
    expect(made.status).toBe(201);
    const body = made.body as { id: string; token: string; expires_at: string; state: string };
    expect(body.state).toBe('active');
    expect(Date.parse(body.expires_at) - clock.now().getTime()).toBe(TOKEN_DEFAULT_DAYS * DAY);
    expect((await t!.call('GET', '/api/v1/clusters', undefined, bearer(body.token))).status).toBe(200);
    clock.advance(TOKEN_DEFAULT_DAYS * DAY);
    const late = await t!.call('GET', '/api/v1/clusters', undefined, bearer(body.token));
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ error: { code: 'token_expired' } });
    expect(t!.manager.store.audit.list({ action: 'token.refused' })[0]!.details).toMatchObject({ id: body.id, reason: 'token_expired' });
  });

  test('expires takes "30d", "12h" or days; more than a year or nonsense is 400 invalid_field', async () => {
    const { clock, admin } = await setup();
    for (const [expires, ms] of [
      ['30d', 30 * DAY],
      ['12h', 12 * 3600_000],
      [7, 7 * DAY],
    ] as const) {
      const r = await t!.call('POST', '/api/v1/users/ada/tokens', { expires }, admin);
      expect(Date.parse((r.body as { expires_at: string }).expires_at) - clock.now().getTime()).toBe(ms);
    }
    for (const expires of ['366d', '0d', 'soon', -1, 1.5, '30 d'])
      expect((await t!.call('POST', '/api/v1/users/ada/tokens', { expires }, admin)).body).toMatchObject({
        error: { code: 'invalid_field', field: 'expires' },
      });
  });
});

describe('revocation and the list', () => {
  test('a revoked token gets 401 token_revoked; the list shows each state; create and revoke are audited', async () => {
    const { admin, viewer } = await setup();
    const a = (await t!.call('POST', '/api/v1/users/vera/tokens', { name: 'ci' }, viewer)).body as { id: string; token: string };
    const b = (await t!.call('POST', '/api/v1/users/vera/tokens', {}, viewer)).body as { id: string; token: string };
    const revoked = await t!.call('DELETE', `/api/v1/users/vera/tokens/${a.id}`, undefined, admin);
    expect(revoked.body).toMatchObject({ id: a.id, state: 'revoked', revoked_by: 'ada' });
    const refused = await t!.call('GET', '/api/v1/clusters', undefined, bearer(a.token));
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { code: 'token_revoked' } });
    expect((await t!.call('GET', '/api/v1/clusters', undefined, bearer(b.token))).status).toBe(200);

    const list = (await t!.call('GET', '/api/v1/users/vera/tokens', undefined, admin)).body as { items: { id: string; state: string }[] };
    expect(Object.fromEntries(list.items.map((i) => [i.id, i.state]))).toEqual({ [a.id]: 'revoked', [b.id]: 'active' });
    expect(JSON.stringify(list)).not.toContain(b.token);
    expect(t!.manager.store.audit.list({ actor: 'vera' }).filter((r) => r.action === 'token.create')).toHaveLength(2);
    expect(t!.manager.store.audit.list({ actor: 'ada' }).map((r) => r.action)).toContain('token.revoke');
    expect(t!.manager.store.audit.verify()).toMatchObject({ ok: true });
  });

  test('a user manages their own tokens, not another’s; a token cannot mint a token', async () => {
    const { viewer } = await setup();
    const own = await t!.call('POST', '/api/v1/users/vera/tokens', {}, viewer);
    expect(own.status).toBe(201);
    expect((await t!.call('GET', '/api/v1/users/ada/tokens', undefined, viewer)).status).toBe(403);
    expect((await t!.call('POST', '/api/v1/users/ada/tokens', {}, viewer)).body).toMatchObject({ error: { code: 'token_owner_only' } });
    const minted = await t!.call('POST', '/api/v1/users/vera/tokens', {}, bearer((own.body as { token: string }).token));
    expect(minted.status).toBe(403);
    expect((await t!.call('DELETE', '/api/v1/users/vera/tokens/0000', undefined, viewer)).status).toBe(404);
  });
});

describe('nobody mints a token for someone else', () => {
  test('an admin may list and revoke another user’s tokens but not create one (403 token_owner_only), so he cannot act as them', async () => {
    const { admin, viewer } = await setup();
    const refused = await t!.call('POST', '/api/v1/users/vera/tokens', {}, admin);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'token_owner_only' } });
    expect(t!.manager.store.audit.list({ action: 'token.create' })).toEqual([]);
    const own = (await t!.call('POST', '/api/v1/users/vera/tokens', {}, viewer)).body as { id: string };
    expect((await t!.call('GET', '/api/v1/users/vera/tokens', undefined, admin)).status).toBe(200);
    expect((await t!.call('DELETE', `/api/v1/users/vera/tokens/${own.id}`, undefined, admin)).body).toMatchObject({ state: 'revoked' });
  });
});
