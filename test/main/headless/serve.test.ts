import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { runCli, startServe, type Served } from '../../support/cli';
import { tempDir } from '../../support/temp-dir';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(
  url: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string>; ca?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, url),
      { method, ca: opts.ca, headers: { 'Content-Type': 'application/json', ...opts.headers } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(JSON.stringify(opts.body));
    req.end();
  });
}

describe('navin-manager serve', () => {
  const dir = tempDir('navin-serve-');
  let served: Served;
  let ca: string;

  beforeAll(async () => {
    const pw = join(dir.path, 'pw');
    writeFileSync(pw, 'correct horse battery\n');
    expect(
      runCli(['user', 'add', '--data-dir', join(dir.path, 'data'), '--name', 'alice', '--role', 'admin', '--password-file', pw]).status,
    ).toBe(0);
    served = await startServe(['--data-dir', join(dir.path, 'data')]);
    ca = (await import('better-sqlite3'))
      .default(join(dir.path, 'data', 'navin.db'), { readonly: true })
      .prepare('SELECT cert_pem FROM ca')
      .pluck()
      .get() as string;
  });
  afterAll(async () => {
    await served?.stop();
    dir.remove();
  });

  test('serves the API over TLS with a certificate of the manager CA', async () => {
    const r = await call(served.url, 'GET', '/api/v1/health', { ca });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ status: 'ok' });
  });

  test('prints a one-time login link that opens a session once', async () => {
    const ticket = /#ticket=(\S+)/.exec(served.output())![1]!;
    const first = await call(served.url, 'POST', '/api/v1/session/ticket', { ca, body: { ticket } });
    expect(first.status).toBe(200);
    const second = await call(served.url, 'POST', '/api/v1/session/ticket', { ca, body: { ticket } });
    expect(second.status).toBe(401);
  });

  test('login sets an HttpOnly, Secure, SameSite=Strict cookie and the CSRF token guards writes', async () => {
    const login = await call(served.url, 'POST', '/api/v1/session', { ca, body: { name: 'alice', password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const jar = cookie.split(';')[0]!;
    const { csrf_token } = JSON.parse(login.body) as { csrf_token: string };
    const refused = await call(served.url, 'POST', '/api/v1/clusters', { ca, body: { name: 'edge-1' }, headers: { Cookie: jar } });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'csrf_missing' } });
    const created = await call(served.url, 'POST', '/api/v1/clusters', {
      ca,
      body: { name: 'edge-1' },
      headers: { Cookie: jar, 'X-CSRF-Token': csrf_token },
    });
    expect(created.status).toBe(201);
  });

  test('an API token from `token create` works as Bearer', async () => {
    const t = runCli(['token', 'create', '--user', 'alice', '--data-dir', join(dir.path, 'data')]);
    expect(t.status).toBe(0);
    const r = await call(served.url, 'GET', '/api/v1/clusters', { ca, headers: { Authorization: `Bearer ${t.stdout.trim()}` } });
    expect(r.status).toBe(200);
  });

  test('malformed JSON is a 400 with a code', async () => {
    const r = await new Promise<Reply>((resolve, reject) => {
      const req = request(new URL('/api/v1/session', served.url), { method: 'POST', ca }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end('{not json');
    });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'invalid_json' } });
  });

  test('the console page is served with a strict Content-Security-Policy', async () => {
    const r = await call(served.url, 'GET', '/clusters', { ca });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/text\/html/);
    expect(String(r.headers['content-security-policy'])).toContain("default-src 'self'");
  });

  test('the data dir is 0700, the database and master key 0600, and no private key was printed', () => {
    const data = join(dir.path, 'data');
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(join(data, 'navin.db')).mode & 0o777).toBe(0o600);
    expect(statSync(join(data, 'master.key')).mode & 0o777).toBe(0o600);
    expect(served.output()).not.toMatch(/PRIVATE KEY/);
    for (const f of readdirSync(join(data, 'tls'))) expect(readFileSync(join(data, 'tls', f), 'utf8')).not.toMatch(/PRIVATE KEY/);
  });

  test('Ctrl-C stops it cleanly: exit 0, the database closed and checkpointed', async () => {
    expect(await served.stop()).toBe(0);
    expect(served.output()).toMatch(/stopped/);
    expect(existsSync(join(dir.path, 'data', 'navin.db-wal'))).toBe(false);
  });
});

describe('navin-manager serve on first run', () => {
  test('prints a one-time setup link when no account exists', async () => {
    const dir = tempDir('navin-first-');
    const s = await startServe(['--data-dir', dir.path]);
    try {
      expect(s.output()).toMatch(/#setup=\S+/);
    } finally {
      await s.stop();
      dir.remove();
    }
  });
});
