import { describe, expect, it } from 'vitest';
import { createSessionStore } from '../../renderer/src/features/session/store';
import { createMfaEnrolmentStore, svgDataUrl } from '../../renderer/src/features/session/mfaEnrolmentStore';
import { FakeApi, alice, apiError, makeClient, sessionOf } from './support/fake-api';

const challenge = { mfa_required: true, mfa_token: 'mfa-tok', expires_at: '2099-01-01T00:05:00Z' };

function setup(configure: (api: FakeApi) => void = () => undefined) {
  const api = new FakeApi();
  api.on('GET /api/v1/session', apiError(401, 'unauthenticated')).on('GET /api/v1/setup', { status: 200, body: { needed: false } });
  configure(api);
  const client = makeClient(api);
  return { api, client, store: createSessionStore({ client }) };
}

describe('sign-in with a second factor', () => {
  it('asks for the code after the password and opens the session with it', async () => {
    const { api, store, client } = setup((a) =>
      a
        .on('POST /api/v1/session', { status: 200, body: challenge })
        .on('POST /api/v1/session/mfa', { status: 200, body: { ...sessionOf(alice, 'tok-2'), mfa: { enrolled: true, required: true } } }),
    );
    await store.getState().bootstrap('');
    expect(await store.getState().login('alice', 'pw')).toBe(false);
    expect(store.getState()).toMatchObject({ status: 'anonymous', mfaChallenge: { token: 'mfa-tok' }, error: null });
    expect(client.getCsrfToken()).toBeNull();
    expect(await store.getState().submitMfaCode(' 123 456 ')).toBe(true);
    expect(api.callsTo('POST', '/api/v1/session/mfa')[0]?.body).toEqual({ mfa_token: 'mfa-tok', code: '123456' });
    expect(store.getState()).toMatchObject({ status: 'authenticated', mfaChallenge: null, mfa: { enrolled: true } });
    expect(client.getCsrfToken()).toBe('tok-2');
  });

  it('keeps the challenge on a wrong code, and goes back to the password when the token is spent', async () => {
    let answer = apiError(401, 'mfa_code_invalid');
    const { store } = setup((a) =>
      a.on('POST /api/v1/session', { status: 200, body: challenge }).on('POST /api/v1/session/mfa', () => answer),
    );
    await store.getState().bootstrap('');
    await store.getState().login('alice', 'pw');
    expect(await store.getState().submitMfaCode('000000')).toBe(false);
    // A wrong code is not the end of the session: the code field stays.
    expect(store.getState()).toMatchObject({ status: 'anonymous', mfaChallenge: { token: 'mfa-tok' } });
    expect(store.getState().error?.code).toBe('mfa_code_invalid');
    answer = apiError(401, 'mfa_token_invalid');
    await store.getState().submitMfaCode('111111');
    expect(store.getState().mfaChallenge).toBeNull();
    expect(store.getState().error?.code).toBe('mfa_token_invalid');
  });

  it('the one-time login link can answer with a challenge too', async () => {
    const { store } = setup((a) => a.on('POST /api/v1/session/ticket', { status: 200, body: challenge }));
    await store.getState().bootstrap('#ticket=abc');
    expect(store.getState()).toMatchObject({ status: 'anonymous', mfaChallenge: { token: 'mfa-tok' } });
  });

  it('a session whose role needs a second factor not set up yet opens the enrolment screen', async () => {
    const { store } = setup((a) =>
      a.on('GET /api/v1/session', { status: 200, body: { ...sessionOf(), mfa: { enrolled: false, required: true } } }),
    );
    await store.getState().bootstrap('');
    expect(store.getState().status).toBe('enrolment');
  });

  it('any call answered 403 mfa_enrollment_required switches to the enrolment screen; enrolling leaves it', async () => {
    let session = { ...sessionOf(), mfa: { enrolled: false, required: false } };
    const { store, client } = setup((a) =>
      a
        .on('GET /api/v1/session', () => ({ status: 200, body: session }))
        .on('GET /api/v1/clusters', apiError(403, 'mfa_enrollment_required')),
    );
    await store.getState().bootstrap('');
    expect(store.getState().status).toBe('authenticated');
    await expect(client.listClusters()).rejects.toMatchObject({ code: 'mfa_enrollment_required' });
    expect(store.getState().status).toBe('enrolment');
    session = { ...sessionOf(), mfa: { enrolled: true, required: true } };
    await store.getState().enrolmentDone();
    expect(store.getState().status).toBe('authenticated');
  });
});

describe('enrolment', () => {
  it('shows the secret, confirms with a code and hands the recovery codes once', async () => {
    const api = new FakeApi();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><title>é</title></svg>';
    api
      .on('POST /api/v1/session/mfa/enrolment', {
        status: 200,
        body: { secret: 'JBSWY3DP', otpauth_uri: 'otpauth://totp/x', qr_svg: svg, account: 'alice' },
      })
      .on('POST /api/v1/session/mfa/enrolment/confirm', { status: 200, body: { recovery_codes: ['a-1', 'b-2'] } });
    const store = createMfaEnrolmentStore({ client: makeClient(api) });
    expect(await store.getState().start()).toBe(true);
    expect(store.getState().enrolment?.secret).toBe('JBSWY3DP');
    expect(await store.getState().confirm('123 456')).toBe(true);
    expect(api.callsTo('POST', '/api/v1/session/mfa/enrolment/confirm')[0]?.body).toEqual({ code: '123456' });
    expect(store.getState()).toMatchObject({ recoveryCodes: ['a-1', 'b-2'], enrolment: null });
    store.getState().finish();
    expect(store.getState().recoveryCodes).toBeNull();
  });

  it('a wrong first code keeps the secret on screen with the error', async () => {
    const api = new FakeApi();
    api
      .on('POST /api/v1/session/mfa/enrolment', { status: 200, body: { secret: 'S', otpauth_uri: 'u', qr_svg: '<svg/>', account: 'a' } })
      .on('POST /api/v1/session/mfa/enrolment/confirm', apiError(400, 'mfa_code_invalid', 'wrong', 'code'));
    const store = createMfaEnrolmentStore({ client: makeClient(api) });
    await store.getState().start();
    expect(await store.getState().confirm('1')).toBe(false);
    expect(store.getState().enrolment?.secret).toBe('S');
    expect(store.getState().error?.code).toBe('mfa_code_invalid');
  });

  it('the QR code becomes an image address that decodes to the SVG, UTF-8 included', () => {
    const svg = '<svg><text>Régis ✓</text></svg>';
    const url = svgDataUrl(svg);
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(url.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8')).toBe(svg);
  });
});
