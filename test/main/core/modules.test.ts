// A new domain needs no edit outside its folder but the module list: a fixture domain defined here (a route and a
// migration), given to the console API and the store beside the real modules, answers its route from its own
// table; the real list alone is exactly the contract's routes, and the router refuses a route no contract declares.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { consoleApi } from '../../../main/api/console-api';
import { ROUTE_SCHEMAS } from '../../../main/contract';
import { openApiDocument } from '../../../main/contract/openapi';
import { ok, type AuthedContext, type Credentials } from '../../../main/core/http/router';
import { DATABASE_FILE } from '../../../main/core/manager';
import type { DomainModule } from '../../../main/core/module';
import { MODULES, schemaMigrations } from '../../../main/core/modules';
import { schemaVersion } from '../../../main/core/store/database';
import { Store } from '../../../main/core/store/store';
import { ManualClock } from '../../support/clock';
import { testManager, type TestManager } from '../../support/manager';

const version = schemaMigrations().length + 1;
const NOTES = 'GET /api/v1/fixture-notes';
const notesSchemas = { [NOTES]: { result: z.object({ items: z.array(z.object({ text: z.string() })) }) } };

/** The fixture domain, as a folder's module.ts would export it. */
const notesModule: DomainModule = {
  name: 'notes',
  migrations: [{ version, name: 'fixture notes', sql: 'CREATE TABLE fixture_notes (text TEXT NOT NULL);' }],
  routes: (router) =>
    // A route is typed by its declaration in main/contract, which a fixture must not join: the typed router
    // refuses it (this directive fails the typecheck the day it would compile), and the fixture's schemas are
    // given to the router at run time instead, as a contract file's would be.
    // @ts-expect-error the fixture's pattern is declared in no contract file
    router.authed('GET', '/api/v1/fixture-notes', 'viewer', ({ manager }: AuthedContext) =>
      ok({ items: manager.store.db.prepare('SELECT text FROM fixture_notes ORDER BY rowid').all() }),
    ),
};
const withNotes = [...MODULES, notesModule];
const keys = (routes: readonly { method: string; pattern: string }[]) => routes.map((r) => `${r.method} ${r.pattern}`).sort();

describe('the module list', () => {
  let tm: TestManager;
  beforeAll(() => {
    tm = testManager();
  });
  afterAll(() => tm?.close());

  test('the real modules add exactly the routes of the contract, which the OpenAPI document names', () => {
    const routes = keys(consoleApi().list());
    expect(routes).toEqual(Object.keys(ROUTE_SCHEMAS).sort());
    const document = openApiDocument({ version: '0', routes: consoleApi().list() });
    const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.sort()).toEqual(routes);
  });

  test("a new domain's migration runs after the ledger and the other modules', and its route answers from its table", async () => {
    const store = Store.open(join(tm.dataDir, DATABASE_FILE), new ManualClock(), schemaMigrations(withNotes));
    try {
      expect(schemaVersion(store.db)).toBe(version);
      store.db.prepare('INSERT INTO fixture_notes (text) VALUES (?)').run('hello');
    } finally {
      store.close();
    }
    const router = consoleApi(withNotes, { ...ROUTE_SCHEMAS, ...notesSchemas });
    expect(keys(router.list())).toEqual([...Object.keys(ROUTE_SCHEMAS), NOTES].sort());
    const get = (credentials: Credentials) =>
      router.handle(tm.manager, {
        method: 'GET',
        path: '/api/v1/fixture-notes',
        query: new URLSearchParams(),
        body: undefined,
        credentials,
      });
    expect(await get(await tm.login('vic', 'viewer'))).toMatchObject({ status: 200, body: { items: [{ text: 'hello' }] } });
    expect((await get({})).status).toBe(401);
  });

  test('the router refuses a route that no schema of its table declares', () => {
    expect(() => consoleApi(withNotes)).toThrow(expect.objectContaining({ code: 'internal', message: expect.stringContaining(NOTES) }));
  });
});
