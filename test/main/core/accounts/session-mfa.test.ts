// The second factor through the API: enrolment, the two-step login, the enrolment-only session of a role the
// profiles require MFA for, and the admin reset.
import { afterEach, describe, expect, it } from 'vitest';
import { URI, type TOTP } from 'otpauth';
import { testManager, type TestManager } from '../../../support/manager';
import { ManualClock } from '../../../support/clock';
import type { Credentials } from '../../../../main/core/http/router';

const PASSWORD = 'correct horse battery';

describe('session MFA API', () => {
  let t: TestManager | undefined;
  afterEach(() => t?.close());

  async function enrol(creds: Credentials, clock: ManualClock): Promise<{ app: TOTP; recovery: string[] }> {
    const started = await t!.call('POST', '/api/v1/session/mfa/enrolment', {}, creds);
    expect(started.status).toBe(200);
    const app = URI.parse((started.body as { otpauth_uri: string }).otpauth_uri) as TOTP;
    const confirmed = await t!.call(
      'POST',
      '/api/v1/session/mfa/enrolment/confirm',
      { code: app.generate({ timestamp: clock.now().getTime() }) },
      creds,
    );
    expect(confirmed.status).toBe(200);
    clock.advance(30_000);
    return { app, recovery: (confirmed.body as { recovery_codes: string[] }).recovery_codes };
  }

  it('enrols with a QR code, then logs in with the password and a TOTP code', async () => {
    const clock = new ManualClock();
    t = testManager({ clock });
    const creds = await t.login('alice', 'admin');
    const started = await t.call('POST', '/api/v1/session/mfa/enrolment', {}, creds);
    const e = started.body as { secret: string; otpauth_uri: string; qr_svg: string; account: string };
    expect(e.account).toBe('alice');
    expect(e.qr_svg.startsWith('<svg')).toBe(true);
    expect(URI.parse(e.otpauth_uri)).toMatchObject({ issuer: 'Navin Console', label: 'alice', algorithm: 'SHA1', digits: 6, period: 30 });
    expect((URI.parse(e.otpauth_uri) as TOTP).secret.base32).toBe(e.secret);

    const wrong = await t.call('POST', '/api/v1/session/mfa/enrolment/confirm', { code: '000000' }, creds);
    expect(wrong).toMatchObject({ status: 400, body: { error: { code: 'mfa_code_invalid' } } });
    const app = URI.parse(e.otpauth_uri) as TOTP;
    const confirmed = await t.call(
      'POST',
      '/api/v1/session/mfa/enrolment/confirm',
      { code: app.generate({ timestamp: clock.now().getTime() }) },
      creds,
    );
    expect((confirmed.body as { recovery_codes: string[] }).recovery_codes).toHaveLength(10);
    expect((await t.call('POST', '/api/v1/session/mfa/enrolment', {}, creds)).body).toMatchObject({
      error: { code: 'mfa_already_enrolled' },
    });
    expect((await t.call('GET', '/api/v1/session', undefined, creds)).body).toMatchObject({ mfa: { enrolled: true, required: false } });
    clock.advance(30_000);

    const first = await t.call('POST', '/api/v1/session', { name: 'alice', password: PASSWORD });
    expect(first.status).toBe(200);
    expect(first.session).toBeUndefined();
    const { mfa_required, mfa_token } = first.body as { mfa_required: boolean; mfa_token: string };
    expect(mfa_required).toBe(true);
    const bad = await t.call('POST', '/api/v1/session/mfa', { mfa_token, code: '000000' });
    expect(bad).toMatchObject({ status: 401, body: { error: { code: 'mfa_code_invalid' } } });
    expect(bad.session).toBeUndefined();
    const done = await t.call('POST', '/api/v1/session/mfa', { mfa_token, code: app.generate({ timestamp: clock.now().getTime() }) });
    expect(done.status).toBe(200);
    expect(done.session?.user.name).toBe('alice');
    expect(done.body).toMatchObject({ user: { name: 'alice' }, mfa: { enrolled: true, required: false } });
    const again = await t.call('POST', '/api/v1/session/mfa', { mfa_token, code: app.generate({ timestamp: clock.now().getTime() }) });
    expect(again).toMatchObject({ status: 401, body: { error: { code: 'mfa_token_invalid' } } });
  });

  it('ends the login link in the challenge for an enrolled user', async () => {
    const clock = new ManualClock();
    t = testManager({ clock });
    const { app } = await enrol(await t.login('alice', 'admin'), clock);
    const r = await t.call('POST', '/api/v1/session/ticket', { ticket: t.manager.accounts.issueLoginTicket('alice') });
    expect(r.session).toBeUndefined();
    const { mfa_token } = r.body as { mfa_token: string };
    expect(
      (await t.call('POST', '/api/v1/session/mfa', { mfa_token, code: app.generate({ timestamp: clock.now().getTime() }) })).status,
    ).toBe(200);
  });

  it('lets an admin of an MFA profile log in but only enrol until confirmed, API tokens included', async () => {
    const clock = new ManualClock();
    t = testManager({ clock });
    t.manager.clusters.create({ name: 'prod', profile: 'standard' }, 'test');
    const admin = await t.login('alice', 'admin');
    const viewer = await t.login('bob', 'viewer');
    const token = t.manager.accounts.createApiToken('alice', 'test');

    expect((await t.call('GET', '/api/v1/session', undefined, admin)).body).toMatchObject({ mfa: { enrolled: false, required: true } });
    expect(await t.call('GET', '/api/v1/users', undefined, admin)).toMatchObject({
      status: 403,
      body: { error: { code: 'mfa_enrollment_required' } },
    });
    expect(await t.call('GET', '/api/v1/clusters', undefined, { bearer: token })).toMatchObject({
      status: 403,
      body: { error: { code: 'mfa_enrollment_required' } },
    });
    expect((await t.call('GET', '/api/v1/health', undefined, admin)).status).toBe(200);
    expect((await t.call('GET', '/api/v1/version', undefined, admin)).status).toBe(200);
    expect((await t.call('GET', '/api/v1/clusters', undefined, viewer)).status).toBe(200);
    expect((await t.call('GET', '/api/v1/session', undefined, viewer)).body).toMatchObject({ mfa: { enrolled: false, required: false } });

    await enrol(admin, clock);
    expect((await t.call('GET', '/api/v1/users', undefined, admin)).status).toBe(200);
    expect((await t.call('GET', '/api/v1/clusters', undefined, { bearer: token })).status).toBe(200);
    expect((await t.call('DELETE', '/api/v1/session', undefined, admin)).status).toBe(204);
  });

  it('refuses enrolment with an API token', async () => {
    t = testManager({ clock: new ManualClock() });
    await t.manager.accounts.addUser('alice', 'admin', PASSWORD, 'test');
    const token = t.manager.accounts.createApiToken('alice', 'test');
    expect(await t.call('POST', '/api/v1/session/mfa/enrolment', {}, { bearer: token })).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden' } },
    });
  });

  it('shows admins who is enrolled and lets them reset a lost second factor', async () => {
    const clock = new ManualClock();
    t = testManager({ clock });
    const root = await t.login('root', 'admin');
    const alice = await t.login('alice', 'operator');
    const { recovery } = await enrol(alice, clock);
    const list = (await t.call('GET', '/api/v1/users', undefined, root)).body as { items: { name: string; mfa_enrolled: boolean }[] };
    expect(list.items.map((u) => [u.name, u.mfa_enrolled])).toEqual([
      ['alice', true],
      ['root', false],
    ]);
    expect((await t.call('DELETE', '/api/v1/users/alice/mfa', undefined, alice)).status).toBe(403);
    expect((await t.call('DELETE', '/api/v1/users/nobody/mfa', undefined, root)).status).toBe(404);
    expect((await t.call('DELETE', '/api/v1/users/alice/mfa', undefined, root)).status).toBe(204);
    expect(t.manager.store.audit.list({ actor: 'root' }).map((r) => r.action)).toContain('mfa.reset');
    const login = await t.call('POST', '/api/v1/session', { name: 'alice', password: PASSWORD });
    expect(login.session?.user.name).toBe('alice');
    expect(t.manager.tables.accounts.unusedRecoveryCodes(t.manager.tables.accounts.userByName('alice')!.id)).toBe(0);
    expect(recovery).toHaveLength(10);
  });
});
