// Part of the composition root: each domain's tables, built once on the store's database from the classes its module
// names. A service is given only the tables it names (tablesFor), so what one domain reads of another's data shows in
// its constructor.
import type { DomainModule } from './module';
import type { MODULES } from './modules';
import type { Db } from './store/database';

/** A domain's tables by the name services read them under, each a class built once on the store's database. */
export type TableClasses = { readonly [name: string]: new (db: Db) => object };

/** The tables the modules of a list build, merged: each class of their `tables` as its instance. */
export type TablesBy<Ms> = Ms extends readonly [infer M, ...infer Rest]
  ? (M extends { readonly tables: infer T } ? { readonly [K in keyof T]: T[K] extends new (db: Db) => infer I ? I : never } : unknown) &
      TablesBy<Rest>
  : unknown;

/**
 * Every domain's tables by name, read from the `tables` of the modules of the list. An interface, so that a fixture
 * domain outside the list (a test's) can add its own by declaration merging.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- its members are the list's
export interface DomainTables extends TablesBy<typeof MODULES> {}

/** The tables a service reads or writes, named in its constructor: `Tables<'commands' | 'hosts'>`. */
export type Tables<K extends keyof DomainTables> = Pick<DomainTables, K>;

/** The tables of every module given, each class its module names built once on `db`. */
export function openDomainTables(db: Db, modules: readonly DomainModule[]): DomainTables {
  const built: Record<string, object> = {};
  for (const [name, Table] of modules.flatMap((m) => Object.entries(m.tables ?? {}))) built[name] = new Table(db);
  return built as unknown as DomainTables;
}

/** Only the named tables: a service handed them cannot reach the others. */
export function tablesFor<K extends keyof DomainTables>(all: DomainTables, ...names: K[]): Tables<K> {
  return Object.fromEntries(names.map((name) => [name, all[name]])) as Tables<K>;
}
