// Four eyes one admin cannot pass alone, through the real console API: under a profile that wants four eyes,
// creating an admin, resetting an admin's factor and trusting a release key need another admin's approval; an
// approval is requested and spent from a console session, never with a token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import type { Credentials } from '../../../../main/core/http/router';
import type { PublicUser } from '../../../../main/core/accounts/accounts';
import { ManualClock } from '../../../support/clock';
import { testManager, type TestManager } from '../../../support/manager';

const errorOf = (body: unknown) => (body as { error: { code: string; details?: Record<string, unknown> } }).error;
const releaseKeyPem = (): string => generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('four eyes for the acts on the manager itself', () => {
  const clock = new ManualClock();
  let t: TestManager;
  let ada: Credentials;
  let bob: Credentials;
  let olga: Credentials;

  const userOf = (name: string): PublicUser => t.manager.accounts.listUsers().find((u) => u.name === name)!;
  /** ada asks, bob approves: the approval id. */
  const approved = (body: Record<string, unknown>): Promise<string> => t.approved(body, ada, bob);

  beforeAll(async () => {
    t = testManager({ clock });
    ada = await t.login('ada', 'admin');
    bob = await t.login('bob', 'admin');
    olga = await t.login('olga', 'operator');
  });
  afterAll(() => t?.close());

  it('without a profile that wants four eyes, one admin creates an admin alone', async () => {
    const res = await t.call('POST', '/api/v1/users', { name: 'carl', role: 'admin', password: 'correct horse battery' }, ada);
    expect(res.status).toBe(201);
    await t.enrolMfa('ada');
    await t.enrolMfa('bob');
    await t.enrolMfa('carl');
    t.manager.clusters.create({ name: 'bank', profile: 'banking-secure' }, 'test');
  });

  it('under banking-secure, creating an admin alone is refused approval_required (audited) and creates nobody', async () => {
    const res = await t.call('POST', '/api/v1/users', { name: 'mallory', role: 'admin', password: 'correct horse battery' }, ada);
    expect(res.status).toBe(403);
    expect(errorOf(res.body)).toMatchObject({ code: 'approval_required', details: { action: 'create_admin', service: 'mallory' } });
    expect(t.manager.accounts.listUsers().some((u) => u.name === 'mallory')).toBe(false);
    expect(t.manager.store.audit.list({ action: 'lifecycle.refused' }).some((r) => r.details.action === 'create_admin')).toBe(true);
    // An operator is no way around four eyes: still created alone.
    expect((await t.call('POST', '/api/v1/users', { name: 'otto', role: 'operator', password: 'correct horse battery' }, ada)).status).toBe(
      201,
    );
  });

  it('with another admin’s approval of that very admin, it is created once; the approval cannot make a second', async () => {
    const id = await approved({ action: 'create_admin', service: 'mallory', change: { role: 'admin' } });
    const other = await t.call(
      'POST',
      '/api/v1/users',
      { name: 'eve', role: 'admin', password: 'correct horse battery', approval_id: id },
      ada,
    );
    expect(errorOf(other.body).code).toBe('approval_wrong_target');
    const made = await t.call(
      'POST',
      '/api/v1/users',
      { name: 'mallory', role: 'admin', password: 'correct horse battery', approval_id: id },
      ada,
    );
    expect(made.status).toBe(201);
    expect(t.manager.approvals.get(id).state).toBe('used');
    expect(
      errorOf(
        (await t.call('POST', '/api/v1/users', { name: 'eve', role: 'admin', password: 'correct horse battery', approval_id: id }, ada))
          .body,
      ).code,
    ).toBe('approval_used');
  });

  it('resetting an admin’s second factor needs an approval; an operator’s does not', async () => {
    expect(errorOf((await t.call('DELETE', '/api/v1/users/carl/mfa', undefined, ada)).body).code).toBe('approval_required');
    expect(t.manager.accounts.mfaStatus(userOf('carl').id)).toMatchObject({ enrolled: true });
    const id = await approved({ action: 'reset_admin_mfa', service: 'carl' });
    expect((await t.call('DELETE', `/api/v1/users/carl/mfa?approval_id=${id}`, undefined, ada)).status).toBe(204);
    expect(t.manager.accounts.mfaStatus(userOf('carl').id)).toMatchObject({ enrolled: false });
    expect((await t.call('DELETE', '/api/v1/users/otto/mfa', undefined, ada)).status).toBe(204);
  });

  it('trusting a release key needs an approval of that key', async () => {
    const pem = releaseKeyPem();
    expect(errorOf((await t.call('POST', '/api/v1/settings/release-keys', { public_key_pem: pem }, ada)).body).code).toBe(
      'approval_required',
    );
    const id = await approved({ action: 'trust_release_key', service: 'release-key', change: { public_key_pem: pem.trim() } });
    const otherKey = await t.call('POST', '/api/v1/settings/release-keys', { public_key_pem: releaseKeyPem(), approval_id: id }, ada);
    expect(errorOf(otherKey.body).code).toBe('approval_mismatch');
    expect((await t.call('POST', '/api/v1/settings/release-keys', { public_key_pem: pem, approval_id: id }, ada)).status).toBe(201);
  });

  it('a token never requests nor spends an approval, even its own user’s; an admin cannot mint one for another user', async () => {
    expect(errorOf((await t.call('POST', '/api/v1/users/olga/tokens', {}, ada)).body).code).toBe('token_owner_only');
    const adaToken = (await t.call('POST', '/api/v1/users/ada/tokens', {}, ada)).body as { token: string };
    const asToken: Credentials = { bearer: adaToken.token };
    const request = await t.call(
      'POST',
      '/api/v1/approvals',
      { action: 'create_admin', service: 'zed', reason: 'r', change: { role: 'admin' } },
      asToken,
    );
    expect(errorOf(request.body).code).toBe('approval_needs_session');
    const id = await approved({ action: 'create_admin', service: 'zed', change: { role: 'admin' } });
    const spend = await t.call(
      'POST',
      '/api/v1/users',
      { name: 'zed', role: 'admin', password: 'correct horse battery', approval_id: id },
      asToken,
    );
    expect(spend.status).toBe(403);
    expect(errorOf(spend.body).code).toBe('approval_needs_session');
    expect(t.manager.approvals.get(id).state).toBe('approved');
    // An operator cannot ask for an act on the manager itself.
    expect(
      errorOf((await t.call('POST', '/api/v1/approvals', { action: 'create_admin', service: 'x', reason: 'r' }, olga)).body).code,
    ).toBe('forbidden');
  });
});
