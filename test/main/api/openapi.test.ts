// The OpenAPI 3.1 document of the console API: built from the contract's schemas, it names every route of the
// router and nothing else, is valid OpenAPI 3.1, is served as it is generated, and the committed copy is current.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { consoleApi } from '../../../main/api/console-api';
import type { Credentials } from '../../../main/core/http/router';
import { CSRF_HEADER, openApiBuild, openApiPath, SESSION_COOKIE_NAME, type OpenApiDocument } from '../../../main/contract/openapi';
import { ERROR_CODES } from '../../../main/contract/error-codes';
import { ROUTE_SCHEMAS, type RouteKey } from '../../../main/contract';
import { VERSION } from '../../../main/core/version';
import { SESSION_COOKIE } from '../../../main/headless/cookies';
import { REPO_ROOT } from '../../support/cli';
import { testManager, type TestManager } from '../../support/manager';

const routes = consoleApi().list();
const built = openApiBuild({ version: VERSION, routes });
const doc = built.document;

/** `GET /api/v1/clusters/{id}` for every operation of the document. */
function operations(d: OpenApiDocument): string[] {
  return Object.entries(d.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
}
const operation = (method: string, pattern: string): Record<string, unknown> => doc.paths[openApiPath(pattern)]![method.toLowerCase()]!;

describe('the OpenAPI document', () => {
  test('names every route of the router with its method, and nothing else', () => {
    const routed = routes.map((r) => `${r.method} ${openApiPath(r.pattern)}`).sort();
    const documented = operations(doc).sort();
    const missing = routed.filter((r) => !documented.includes(r));
    const extra = documented.filter((r) => !routed.includes(r));
    expect({ missing, extra }, 'routes missing from the document (not declared schema first?) or documented but not routed').toEqual({
      missing: [],
      extra: [],
    });
  });

  test('describes every schema exactly: none had to be written as "anything"', () => {
    expect(built.gaps).toEqual([]);
  });

  test('is valid OpenAPI 3.1, and each $ref resolves', async () => {
    const validator = new Validator();
    const res = await validator.validate(structuredClone(doc));
    expect(res.errors ?? [], JSON.stringify(res.errors, null, 2)).toEqual([]);
    expect(res.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  test('gives each operation an id of its own', () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('holds the title, the version of the package, and one path parameter for each `:name` of a pattern', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Navin Console manager API', version: VERSION });
    expect(doc.paths['/api/v1/users/{name}/tokens/{id}']).toBeDefined();
    expect(operation('DELETE', '/api/v1/users/:name/tokens/:id').parameters).toEqual([
      { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ]);
  });

  test("a route's query parameters, body and answer are its schemas; the answer's status is the route's", () => {
    expect(operation('DELETE', '/api/v1/users/:name/mfa')).toMatchObject({
      parameters: expect.arrayContaining([{ name: 'approval_id', in: 'query', required: false, schema: { type: 'string' } }]),
      responses: { '204': { description: expect.any(String) } },
    });
    const create = operation('POST', '/api/v1/users');
    expect(create).toMatchObject({
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { type: 'object', required: ['name', 'role', 'password'] } } },
      },
      responses: { '201': { content: { 'application/json': { schema: { type: 'object' } } } } },
    });
    // No body is a token of the default lifetime: the body is optional.
    expect(operation('POST', '/api/v1/users/:name/tokens')).toMatchObject({ requestBody: { required: false }, responses: { '201': {} } });
    expect(operation('GET', '/api/v1/health').responses).toMatchObject({
      '200': { content: { 'application/json': { schema: { properties: { status: { const: 'ok' } } } } } },
    });
  });

  test('a text route answers its media type', () => {
    expect(
      Object.keys((operation('GET', '/api/v1/keys/manager.pem').responses as Record<string, { content: object }>)['200']!.content),
    ).toEqual(['application/x-pem-file']);
  });

  test('every failure is the error body, its code one of the error table', () => {
    for (const key of operations(doc)) {
      const [method, path] = key.split(' ') as [string, string];
      expect(doc.paths[path]![method.toLowerCase()]!.responses, key).toMatchObject({ default: { $ref: '#/components/responses/Error' } });
    }
    const error = doc.components.schemas.Error as { properties: { error: { properties: { code: { enum: string[] } } } } };
    expect([...error.properties.error.properties.code.enum].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  test("public routes need no credential; the others a session (and its CSRF header on a change) or a token, and say the router's least role", () => {
    for (const r of routes) {
      const op = doc.paths[openApiPath(r.pattern)]?.[r.method.toLowerCase()];
      if (!op) continue; // reported by the first test
      if (r.access === 'public') {
        expect(op.security, `${r.method} ${r.pattern}`).toEqual([]);
        expect(op['x-navin-role']).toBeUndefined();
      } else {
        expect(op['x-navin-role'], `${r.method} ${r.pattern}`).toBe(r.access);
        expect(op.security).toEqual(r.method === 'GET' ? [{ session: [] }, { bearer: [] }] : [{ session: [], csrf: [] }, { bearer: [] }]);
      }
    }
    expect(operation('POST', '/api/v1/session').security).toEqual([]);
    expect(operation('GET', '/api/v1/openapi.json')['x-navin-role']).toBe('viewer');
  });

  test('the security schemes name the cookie and the header the HTTPS transport reads', () => {
    expect(SESSION_COOKIE_NAME).toBe(SESSION_COOKIE);
    const server = readFileSync(join(REPO_ROOT, 'main/headless/https-server.ts'), 'utf8');
    expect(server).toContain(`header(req, '${CSRF_HEADER.toLowerCase()}')`);
    expect(doc.components.securitySchemes).toEqual({
      session: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }),
      csrf: expect.objectContaining({ type: 'apiKey', in: 'header', name: CSRF_HEADER }),
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
  });

  test('the committed resources/openapi.json is the document the contract makes now', () => {
    const committed = JSON.parse(readFileSync(join(REPO_ROOT, 'resources/openapi.json'), 'utf8')) as unknown;
    expect(committed, 'resources/openapi.json is out of date: run `npm run openapi` and commit it').toEqual(doc);
  });
});

describe('GET /api/v1/openapi.json', () => {
  let t: TestManager;
  let viewer: Credentials;
  beforeAll(async () => {
    t = testManager();
    viewer = await t.login('vera', 'viewer');
  });
  afterAll(() => t.close());

  test('serves the generated document to a viewer', async () => {
    const res = await t.call('GET', '/api/v1/openapi.json', undefined, viewer);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(openApiBuild({ version: t.manager.version, routes: t.router.list() }).document);
    expect(res.body).toEqual(doc);
  });

  test('what the system and session routes answer is exactly what their result schemas describe', async () => {
    const answers: [RouteKey, unknown][] = [
      ['GET /api/v1/health', (await t.call('GET', '/api/v1/health')).body],
      ['GET /api/v1/version', (await t.call('GET', '/api/v1/version')).body],
      ['GET /api/v1/setup', (await t.call('GET', '/api/v1/setup')).body],
      ['GET /api/v1/session', (await t.call('GET', '/api/v1/session', undefined, viewer)).body],
      ['POST /api/v1/session', (await t.call('POST', '/api/v1/session', { name: 'vera', password: 'correct horse battery' })).body],
      ['POST /api/v1/session/mfa/enrolment', (await t.call('POST', '/api/v1/session/mfa/enrolment', undefined, viewer)).body],
    ];
    for (const [route, body] of answers) {
      // Parsing strips what the schema does not name: an answer with a field more would differ.
      expect(ROUTE_SCHEMAS[route as keyof typeof ROUTE_SCHEMAS].result.parse(body), route).toEqual(body);
    }
  });

  test('is not served to an anonymous caller', async () => {
    expect((await t.call('GET', '/api/v1/openapi.json')).body).toMatchObject({ error: { code: 'unauthenticated' } });
  });
});
