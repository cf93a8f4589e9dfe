// Routes declared schema first: the router parses their body and query with the contract's schemas before the
// handler, answering the API's usual 400 (invalid_field naming the JSON path and the rule, bad_request for a body
// that is no object), and only once the caller may use the route.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ok, Router, type Credentials } from '../../../main/core/http/router';
import { consoleApi } from '../../../main/api/console-api';
import { ROUTE_SCHEMAS, type RouteSchemaTable } from '../../../main/contract';
import { jsonPath } from '../../../main/core/http/zod-issue';
import { testManager, type TestManager } from '../../support/manager';

let t: TestManager;
let ada: Credentials;
beforeAll(async () => {
  t = testManager();
  ada = await t.login('ada', 'admin');
});
afterAll(() => t.close());

describe('a schema-first route of the console API', () => {
  test('a field of the wrong type is 400 invalid_field naming it and its rule, before the core sees it', async () => {
    const res = await t.call('POST', '/api/v1/users/ada/tokens', { name: 42 }, ada);
    expect(res).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_field', field: 'name', message: 'a token name is 1 to 64 letters, digits, spaces or . _ : / @ -' } },
    });
    expect(t.manager.store.audit.list({ action: 'token.create' })).toHaveLength(0);
  });

  test('a body that is no JSON object is 400 bad_request; no body at all is allowed where the schema says so', async () => {
    for (const body of [[], 'x', 3, null])
      expect((await t.call('POST', '/api/v1/users/ada/tokens', body, ada)).body).toMatchObject({
        error: { code: 'bad_request', message: 'the request body must be a JSON object' },
      });
    expect((await t.call('POST', '/api/v1/users/ada/tokens', undefined, ada)).status).toBe(201);
  });

  test('an anonymous caller is 401 whatever its body: the rules are applied to callers who may use the route', async () => {
    expect((await t.call('POST', '/api/v1/users/ada/tokens', { name: 42 })).body).toMatchObject({ error: { code: 'unauthenticated' } });
  });

  test('a new account is parsed whole: an approval_id that is no text is invalid_field, not ignored', async () => {
    const res = await t.call(
      'POST',
      '/api/v1/users',
      { name: 'bob', role: 'viewer', password: 'long enough password', approval_id: 5 },
      ada,
    );
    expect(res.body).toMatchObject({ error: { code: 'invalid_field', field: 'approval_id' } });
    expect(
      (await t.call('POST', '/api/v1/users', { name: 'bob', role: 'boss', password: 'long enough password' }, ada)).body,
    ).toMatchObject({
      error: { code: 'invalid_field', field: 'role', message: 'role must be one of viewer, operator, admin' },
    });
    expect(t.manager.accounts.listUsers().map((u) => u.name)).not.toContain('bob');
  });

  test("drift's mode and realign bodies are judged by the contract before the core looks the cluster or finding up", async () => {
    expect((await t.call('PUT', '/api/v1/clusters/nope/drift/mode', { mode: 'freeze' }, ada)).body).toEqual({
      error: { code: 'invalid_field', field: 'mode', message: 'mode is realign or report_only' },
    });
    expect((await t.call('POST', '/api/v1/drift/findings/nope/realign', { approval_id: 5 }, ada)).body).toMatchObject({
      error: { code: 'invalid_field', field: 'approval_id' },
    });
    // A well-formed request reaches the core, which knows no such cluster or finding.
    expect((await t.call('PUT', '/api/v1/clusters/nope/drift/mode', { mode: 'report_only' }, ada)).status).toBe(404);
    expect((await t.call('POST', '/api/v1/drift/findings/nope/realign', {}, ada)).status).toBe(404);
  });

  test('every route of the schema table is a route of the console API', () => {
    const routes = new Set(
      consoleApi()
        .list()
        .map((r) => `${r.method} ${r.pattern}`),
    );
    expect(Object.keys(ROUTE_SCHEMAS).length).toBeGreaterThan(0);
    for (const key of Object.keys(ROUTE_SCHEMAS)) expect(routes).toContain(key);
  });
});

describe('the router with a table of schemas', () => {
  // A table of its own, so that the nested paths and the handler's parsed input are shown whatever the families.
  const nested = z.object({ hosts: z.array(z.object({ address: z.string().min(1, 'an address is required') })), port: z.coerce.number() });
  const table = {
    'POST /api/v1/users/:name/tokens': { body: nested, query: z.object({ lang: z.enum(['en', 'fr']).default('en') }), result: z.unknown() },
  } as unknown as RouteSchemaTable;
  const router = new Router(table);
  const seen: unknown[] = [];
  router.authed('POST', '/api/v1/users/:name/tokens', 'viewer', ({ body, query }) => {
    seen.push({ body, query });
    return ok(null as never, 201);
  });
  const call = (body: unknown, query = '') =>
    router.handle(t.manager, {
      method: 'POST',
      path: '/api/v1/users/ada/tokens',
      query: new URLSearchParams(query),
      body,
      credentials: ada,
    });

  test('a faulty value deep in the body is named by its JSON path', async () => {
    const res = await call({ hosts: [{ address: 'a' }, { address: '' }], port: '1' });
    expect(res).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_field', field: 'hosts[1].address', message: 'an address is required' } },
    });
    expect(seen).toHaveLength(0);
  });

  test('a faulty query value is invalid_field naming it', async () => {
    expect((await call({ hosts: [], port: 1 }, 'lang=de')).body).toMatchObject({ error: { code: 'invalid_field', field: 'lang' } });
  });

  test('the handler gets the parsed input: coerced, defaulted, unknown names dropped', async () => {
    expect((await call({ hosts: [{ address: 'h', extra: 1 }], port: '8443', other: true })).status).toBe(201);
    expect(seen.at(-1)).toEqual({ body: { hosts: [{ address: 'h' }], port: 8443 }, query: { lang: 'en' } });
  });

  test('a JSON path writes array indexes in brackets and names with dots', () => {
    expect(jsonPath(['hosts', 0, 'address'])).toBe('hosts[0].address');
    expect(jsonPath([2])).toBe('[2]');
    expect(jsonPath([])).toBe('');
  });
});
