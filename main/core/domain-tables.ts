// Part of the composition root: each domain's tables, built once on the store's database by the modules of the list.
// A service is given only the tables it names (tablesFor), so what one domain reads of another's data shows in its
// constructor.
import type { Db } from './store/database';

/**
 * Every domain's tables by name. Empty here: each domain adds its own from its module.ts by declaration merging
 * (`declare module '../domain-tables' { interface DomainTables { drift: DriftTables } }`) and builds them in its
 * module's `tables`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the domains' declaration merging
export interface DomainTables {}

/** The tables a service reads or writes, named in its constructor: `Tables<'commands' | 'hosts'>`. */
export type Tables<K extends keyof DomainTables> = Pick<DomainTables, K>;

/** The tables of every module of the list (DomainModule, module.ts), each built by its own module on `db`. */
export function openDomainTables(db: Db, modules: readonly { readonly tables?: (db: Db) => Partial<DomainTables> }[]): DomainTables {
  return Object.assign({}, ...modules.map((m) => m.tables?.(db) ?? {})) as DomainTables;
}

/** Only the named tables: a service handed them cannot reach the others. */
export function tablesFor<K extends keyof DomainTables>(all: DomainTables, ...names: K[]): Tables<K> {
  return Object.fromEntries(names.map((name) => [name, all[name]])) as Tables<K>;
}
