// Anyone can send logins, so they cannot be allowed to slow everyone down: the credential routes are limited per
// source (429 rate_limited with Retry-After), password hashing runs with bounded concurrency and a bounded queue,
// and /health and authenticated calls never wait behind either.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Agent } from 'node:https';
import { testManager, type TestManager } from '../../support/manager';
import { startListeners, type RunningListeners } from '../../support/listeners';
import { httpsCall, type RawReply, type RawRequest } from '../../support/https-call';
import { CREDENTIAL_RATE_LIMIT, sourceOf } from '../../../main/headless/credential-throttle';
import { PASSWORD_CONCURRENCY, PASSWORD_QUEUE } from '../../../main/core/accounts/password-gate';

let t: TestManager;
let listeners: RunningListeners;
let token: string;

const call = (path: string, opts: RawRequest = {}): Promise<RawReply> =>
  httpsCall(listeners.console.url, path, { ca: t.manager.ca.certPem, ...opts });
const login = (name: string, opts: RawRequest = {}): Promise<RawReply> =>
  call('/api/v1/session', { body: JSON.stringify({ name, password: 'not the password' }), ...opts });

beforeAll(async () => {
  t = testManager();
  // The default burst, but no refill while the test runs, so that the counts below are exact.
  listeners = await startListeners(t, { credentialRateLimit: { burst: CREDENTIAL_RATE_LIMIT.burst, perMinute: 0.01 } });
  await t.manager.accounts.addUser('alice', 'admin', 'correct horse battery', 'test');
  token = t.manager.accounts.createApiToken('alice', 'test');
});
afterAll(async () => {
  await listeners?.close();
  t?.close();
});

describe('per-source rate limit of the credential routes', () => {
  test('800 logins at once from one source: past the burst each gets 429 rate_limited with Retry-After, audited once', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 64, ca: t.manager.ca.certPem });
    try {
      const replies = await Promise.all(Array.from({ length: 800 }, (_, i) => login(`nobody-${i}`, { agent })));
      const limited = replies.filter((r) => r.status === 429);
      expect(limited).toHaveLength(800 - CREDENTIAL_RATE_LIMIT.burst);
      expect(limited[0]!.json.error.code).toBe('rate_limited');
      expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(replies.filter((r) => r.status !== 429 && r.status !== 401)).toEqual([]);
    } finally {
      agent.destroy();
    }
    const rows = t.manager.store.audit.list({ action: 'session.rate_limited' });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.details).toMatchObject({ method: 'password', source: '127.0.0.1' });
  });

  test('meanwhile the same source still gets /health, authenticated reads and 100 authenticated writes at once', async () => {
    expect((await call('/api/v1/health')).status).toBe(200);
    const auth = { Authorization: `Bearer ${token}` };
    expect((await call('/api/v1/clusters', { headers: auth })).status).toBe(200);
    const writes = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call('/api/v1/clusters', { headers: auth, body: JSON.stringify({ name: `bulk-${i}` }) })),
    );
    expect(writes.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
  });

  test('another source signs in normally, and the setup, MFA and login-link routes are limited as the login is', async () => {
    const other = await call('/api/v1/session', {
      localAddress: '127.0.0.2',
      body: JSON.stringify({ name: 'alice', password: 'correct horse battery' }),
    });
    expect(other.status).toBe(200);
    for (const [path, body] of [
      ['/api/v1/setup', { token: 'x', name: 'root', password: 'correct horse battery' }],
      ['/api/v1/session/mfa', { mfa_token: 'x', code: '000000' }],
      ['/api/v1/session/ticket', { ticket: 'x' }],
    ] as const)
      expect((await call(path, { body: JSON.stringify(body) })).status).toBe(429);
  });

  test('IPv6 sources count per /64, IPv4-mapped addresses as their IPv4 address', () => {
    expect(sourceOf('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(sourceOf('2001:db8:1:2:aaaa::1')).toBe(sourceOf('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(sourceOf('2001:db8:1:2::1')).not.toBe(sourceOf('2001:db8:1:3::1'));
    expect(sourceOf('::1')).toBe('0:0:0:0::/64');
  });
});

describe('bounded password hashing', () => {
  test('with every scrypt slot taken and the queue full, a login is refused at once while /health and authenticated calls answer', async () => {
    const gate = t.manager.accounts.passwordGate;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holders = Array.from({ length: PASSWORD_CONCURRENCY }, () => gate.run(() => held));
    // Logins of the core itself (the queue is the manager's, whatever the transport).
    const queued = Array.from({ length: PASSWORD_QUEUE + 8 }, (_, i) =>
      t.manager.accounts.login(`queued-${i}`, 'not the password').then(
        () => 'session',
        (e: { code: string }) => e.code,
      ),
    );
    expect(gate.stats()).toMatchObject({ active: PASSWORD_CONCURRENCY, waiting: PASSWORD_QUEUE });

    const busy = await call('/api/v1/session', { localAddress: '127.0.0.3', body: JSON.stringify({ name: 'alice', password: 'x' }) });
    expect(busy.status).toBe(429);
    expect(busy.json.error.code).toBe('rate_limited');
    expect(busy.headers['retry-after']).toBe('1');
    expect((await call('/api/v1/health')).status).toBe(200);
    expect((await call('/api/v1/audit?limit=5', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    expect(gate.stats()).toMatchObject({ active: PASSWORD_CONCURRENCY, waiting: PASSWORD_QUEUE });

    release();
    await Promise.all(holders);
    const outcomes = await Promise.all(queued);
    expect(outcomes.filter((o) => o === 'rate_limited')).toHaveLength(8);
    expect(outcomes.filter((o) => o === 'invalid_credentials')).toHaveLength(PASSWORD_QUEUE);
    expect(gate.stats()).toMatchObject({ active: 0, waiting: 0, peakActive: PASSWORD_CONCURRENCY });
  });
});
