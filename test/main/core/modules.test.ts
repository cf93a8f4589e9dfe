// A new domain needs no edit outside its folder but the module list: a fixture domain defined here (its tables, a
// service built from an earlier domain's, a route and a migration), given to the manager, the console API and the
// store beside the real modules, answers its route from its own table through its service; the real list alone is
// exactly the contract's routes, the router refuses a route no contract declares, and a module reading a service
// that a later module builds fails at start.
import { afterAll, describe, expect, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { consoleApi } from '../../../main/api/console-api';
import { ROUTE_SCHEMAS } from '../../../main/contract';
import { openApiDocument } from '../../../main/contract/openapi';
import type { Accounts } from '../../../main/core/accounts/accounts';
import { tablesFor, type Tables } from '../../../main/core/domain-tables';
import type { Drift } from '../../../main/core/drift/drift';
import { CoreError } from '../../../main/core/errors';
import { ok, type AuthedContext, type Credentials } from '../../../main/core/http/router';
import { openManager, type Manager } from '../../../main/core/manager';
import type { DomainModule } from '../../../main/core/module';
import { MODULES, schemaMigrations, type BuiltBefore } from '../../../main/core/modules';
import { schemaVersion, type Db } from '../../../main/core/store/database';
import type { ServiceBackupsTables } from '../../../main/core/services/service-backups-tables';
import { ManualClock } from '../../support/clock';
import { tempDir } from '../../support/temp-dir';

const version = schemaMigrations().length + 1;
const NOTES = 'GET /api/v1/fixture-notes';
const notesSchemas = { [NOTES]: { result: z.object({ items: z.array(z.object({ text: z.string() })) }) } };

/** The fixture domain's table, as its folder's tables file would hold it. */
class NotesTable {
  constructor(private readonly db: Db) {}
  insert(text: string): void {
    this.db.prepare('INSERT INTO fixture_notes (text) VALUES (?)').run(text);
  }
  list(): { text: string }[] {
    return this.db.prepare('SELECT text FROM fixture_notes ORDER BY rowid').all() as { text: string }[];
  }
}

/** The fixture domain's service, built from an earlier domain's (accounts): only a user of the console writes a note. */
class Notes {
  constructor(
    private readonly tables: Tables<'fixtureNotes'>,
    private readonly accounts: Accounts,
  ) {}
  add(text: string, author: string): void {
    if (!this.accounts.listUsers().some((u) => u.name === author)) throw new CoreError('not_found', `no user ${author}`);
    this.table().insert(text);
  }
  list(): { text: string }[] {
    return this.table().list();
  }
  private table(): NotesTable {
    const table = this.tables.fixtureNotes;
    if (!table) throw new CoreError('internal', 'the fixture notes table is not built');
    return table;
  }
}

// A listed domain's members are read from its module; this one is in no list the types read (only the managers of
// this file build it), so it adds them by declaration merging, optional.
declare module '../../../main/core/domain-tables' {
  interface DomainTables {
    readonly fixtureNotes?: NotesTable;
  }
}
declare module '../../../main/core/manager' {
  interface Manager {
    readonly notes?: Notes;
  }
}

/** The fixture domain, as a folder's module.ts would export it (a listed one's build reads `BuiltBefore<'notes'>`). */
const notesModule: DomainModule = {
  name: 'notes',
  tables: { fixtureNotes: NotesTable },
  build: (m) => ({ notes: new Notes(tablesFor(m.tables, 'fixtureNotes'), m.accounts) }),
  migrations: [{ version, name: 'fixture notes', sql: 'CREATE TABLE fixture_notes (text TEXT NOT NULL);' }],
  routes: (router) =>
    // A route is typed by its declaration in main/contract, which a fixture must not join: the typed router
    // refuses it (this directive fails the typecheck the day it would compile), and the fixture's schemas are
    // given to the router at run time instead, as a contract file's would be.
    // @ts-expect-error the fixture's pattern is declared in no contract file
    router.authed('GET', '/api/v1/fixture-notes', 'viewer', ({ manager }: AuthedContext) => ok({ items: manager.notes?.list() })),
};
const withNotes = [...MODULES, notesModule];
const keys = (routes: readonly { method: string; pattern: string }[]) => routes.map((r) => `${r.method} ${r.pattern}`).sort();

describe('the module list', () => {
  const dirs: { remove(): void }[] = [];
  afterAll(() => dirs.forEach((d) => d.remove()));
  const dataDir = () => {
    const dir = tempDir('navin-modules-');
    dirs.push(dir);
    return dir.path;
  };

  test('the real modules add exactly the routes of the contract, which the OpenAPI document names', () => {
    const routes = keys(consoleApi().list());
    expect(routes).toEqual(Object.keys(ROUTE_SCHEMAS).sort());
    const document = openApiDocument({ version: '0', routes: consoleApi().list() });
    const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.sort()).toEqual(routes);
  });

  test("a new domain's migration runs after the ledger and the other modules', its service is built from an earlier one's and its route answers from its table", async () => {
    const manager: Manager = openManager({ dataDir: dataDir(), mode: 'headless', clock: new ManualClock(), modules: withNotes });
    try {
      expect(schemaVersion(manager.store.db)).toBe(version);
      expect(manager.tables.fixtureNotes).toBeInstanceOf(NotesTable);
      expect(() => manager.notes?.add('hello', 'vic')).toThrow(expect.objectContaining({ code: 'not_found' }));
      await manager.accounts.addUser('vic', 'viewer', 'correct horse battery', 'test');
      manager.notes?.add('hello', 'vic');

      const router = consoleApi(withNotes, { ...ROUTE_SCHEMAS, ...notesSchemas });
      expect(keys(router.list())).toEqual([...Object.keys(ROUTE_SCHEMAS), NOTES].sort());
      const call = (method: 'GET' | 'POST', path: string, body: unknown, credentials: Credentials) =>
        router.handle(manager, { method, path, query: new URLSearchParams(), body, credentials });
      const login = await call('POST', '/api/v1/session', { name: 'vic', password: 'correct horse battery' }, {});
      const session = { session: login.session?.token, csrf: login.session?.csrf_token };
      expect(await call('GET', '/api/v1/fixture-notes', undefined, session)).toMatchObject({
        status: 200,
        body: { items: [{ text: 'hello' }] },
      });
      expect((await call('GET', '/api/v1/fixture-notes', undefined, {})).status).toBe(401);
    } finally {
      manager.close();
    }
  });

  test('a module that reads a service a later module builds fails at start, naming both', () => {
    const early: DomainModule = { name: 'early', build: (m) => ({ notes: new Notes(tablesFor(m.tables, 'fixtureNotes'), m.accounts) }) };
    const dir = dataDir();
    const outOfOrder = [...MODULES.slice(0, 1), early, ...MODULES.slice(1)];
    expect(() => openManager({ dataDir: dir, mode: 'headless', clock: new ManualClock(), modules: outOfOrder })).toThrow(
      expect.objectContaining({ code: 'internal', message: 'early reads accounts before it is built' }),
    );
  });

  test("a listed module's build is typed with what the modules before it built, and the manager with what all built (proved by the typecheck)", () => {
    expectTypeOf<BuiltBefore<'drift'>>().toHaveProperty('services');
    expectTypeOf<BuiltBefore<'accounts'>>().toHaveProperty('registration');
    expectTypeOf<BuiltBefore<'accounts'>>().not.toHaveProperty('services');
    expectTypeOf<BuiltBefore<'keys'>>().not.toHaveProperty('keyring');
    expectTypeOf<Manager>().toHaveProperty('drift').toEqualTypeOf<Drift>();
    expectTypeOf<Manager['tables']>().toHaveProperty('serviceBackups').toEqualTypeOf<ServiceBackupsTables>();
  });

  test('the router refuses a route that no schema of its table declares', () => {
    expect(() => consoleApi(withNotes)).toThrow(expect.objectContaining({ code: 'internal', message: expect.stringContaining(NOTES) }));
  });
});
