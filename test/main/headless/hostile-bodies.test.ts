// What the console listener does with bodies no JSON encoder would produce: lone surrogates, invalid UTF-8,
// numbers beyond range and deep nesting are refused at parsing with 400 invalid_json (a refused login still
// audited), and a body over the limit gets its 413 body_too_large written before the connection closes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../support/manager';
import { startListeners, type RunningListeners } from '../../support/listeners';
import { httpsCall, LONE, type RawRequest } from '../../support/https-call';
import { MAX_JSON_DEPTH } from '../../../main/core/http/json-body';

let t: TestManager;
let listeners: RunningListeners;
let token: string;
let clusterId: string;

const call = (path: string, opts: RawRequest = {}) =>
  httpsCall(listeners.console.url, path, { ca: t.manager.ca.certPem, ...opts, headers: { ...opts.headers } });
const authed = (path: string, opts: RawRequest = {}) =>
  call(path, { ...opts, headers: { Authorization: `Bearer ${token}`, ...opts.headers } });

beforeAll(async () => {
  t = testManager();
  listeners = await startListeners(t);
  await t.manager.accounts.addUser('alice', 'admin', 'correct horse battery', 'test');
  token = t.manager.accounts.createApiToken('alice', 'test');
  clusterId = t.manager.clusters.create({ name: 'edge-1', description: 'as it was' }, 'test').id;
});
afterAll(async () => {
  await listeners?.close();
  t?.close();
});

describe('lone surrogates', () => {
  test('a login with one is refused with 400 invalid_json, and the failed login is audited', async () => {
    const r = await call('/api/v1/session', { body: `{"name":"alice${LONE}","password":"whatever123"}` });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalid_json', details: { reason: 'lone_surrogate' } });
    const row = t.manager.store.audit.list({ action: 'session.login_failed' })[0]!;
    expect(row.details).toMatchObject({ reason: 'invalid_json', method: 'password' });
    expect(row.actor).toBe('alice\ufffd');
    expect(t.manager.store.audit.verify()).toMatchObject({ ok: true });
  });

  test('a PATCH with one is refused and changes nothing', async () => {
    const r = await authed(`/api/v1/clusters/${clusterId}`, { method: 'PATCH', body: `{"description":"x${LONE}y"}` });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('invalid_json');
    expect(t.manager.clusters.get(clusterId).description).toBe('as it was');
  });

  test('a create with one stores nothing (it used to store other bytes than it echoed)', async () => {
    const r = await authed('/api/v1/clusters', { body: `{"name":"edge-2","description":"a${LONE}b"}` });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('invalid_json');
    expect(t.manager.clusters.list().map((c) => c.name)).not.toContain('edge-2');
  });

  test('in a key too, and a well-formed pair written as two escapes is fine', async () => {
    expect((await authed('/api/v1/clusters', { body: `{"name":"edge-3","${LONE}":1}` })).json.error.code).toBe('invalid_json');
    const ok = await authed('/api/v1/clusters', { body: '{"name":"edge-4","description":"\\ud83d\\ude80"}' });
    expect(ok.status).toBe(201);
    expect(ok.json.description).toBe('🚀');
  });
});

describe('other bodies that are not JSON the store could keep', () => {
  test('invalid UTF-8 is refused, not silently replaced', async () => {
    const body = Buffer.concat([Buffer.from('{"name":"edge-5","description":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const r = await authed('/api/v1/clusters', { body });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalid_json', details: { reason: 'invalid_utf8' } });
  });

  test('a number beyond IEEE 754 range is refused', async () => {
    const r = await authed(`/api/v1/clusters/${clusterId}`, { method: 'PATCH', body: '{"description":1e400}' });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalid_json', details: { reason: 'number_out_of_range' } });
  });

  test(`nesting is bounded at ${MAX_JSON_DEPTH} levels, with a clear 400 even at 200,000 levels`, async () => {
    const nested = (n: number): string => `{"name":"edge-6","description":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
    const deep = await authed('/api/v1/clusters', { body: nested(200_000) });
    expect(deep.status).toBe(400);
    expect(deep.json.error).toMatchObject({ code: 'invalid_json', details: { reason: 'too_deep' } });
    expect(deep.json.error.message).toContain(String(MAX_JSON_DEPTH));
    expect((await authed('/api/v1/clusters', { body: nested(MAX_JSON_DEPTH + 1) })).json.error.code).toBe('invalid_json');
    // Within the bound the body reaches the handler, which judges the field itself.
    const within = await authed('/api/v1/clusters', { body: nested(MAX_JSON_DEPTH) });
    expect(within.json.error).toMatchObject({ code: 'invalid_field', field: 'description' });
  });
});

describe('bodies over the limit', () => {
  test('get 413 body_too_large, written before the connection closes', async () => {
    const big = `{"name":"x","description":"${'a'.repeat(2 << 20)}"}`;
    const r = await authed('/api/v1/clusters', { body: big });
    expect(r.status).toBe(413);
    expect(r.json.error).toMatchObject({ code: 'body_too_large' });
    expect(r.headers.connection).toBe('close');
  });

  test('also when the body arrives in chunks without a declared length', async () => {
    const { request } = await import('node:https');
    const u = new URL('/api/v1/session', listeners.console.url);
    const status = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', ca: t.manager.ca.certPem, agent: false },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(256 << 10, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < 3 << 20) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(status.status).toBe(413);
    expect(JSON.parse(status.text).error.code).toBe('body_too_large');
  });

  test('and the listener still answers afterwards', async () => {
    expect((await call('/api/v1/health')).status).toBe(200);
  });
});
