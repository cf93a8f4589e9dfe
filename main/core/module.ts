// What a domain gives the manager, registered by one line of the module list (modules.ts): its tables, its services,
// its console routes and its schema migrations. The types of the manager and of its tables are read from the list.
import type { Router } from './http/router';
import { tablesFor, type DomainTables, type TableClasses } from './domain-tables';
import type { Manager, ManagerBase, ManagerBuild } from './manager';
import type { Migration } from './store/migrations';

/**
 * A domain's module.ts declares `function build(m: BuiltBefore<'name'>)` (and `close`, `routes` when it has them) and
 * exports `{ name: 'name', tables: { ... }, build, routes } as const`, unannotated: the manager's type and its tables'
 * are read from these objects through the list (BuiltBy, TablesBy), and `as const` keeps the name a literal for
 * BuiltBefore. The functions are declarations, not arrows in the object: TypeScript types an arrow's parameter while
 * inferring the object, and BuiltBefore reads the list that object is in (a circular type); a declaration's
 * parameter is typed only where the function is used.
 */
export interface DomainModule {
  /** The domain's folder under main/core, for messages and the tests that walk the list. */
  readonly name: string;
  /** Each class built once on the store's database, by the name services read it under (`{ drift: DriftTables }`). */
  readonly tables?: TableClasses;
  /**
   * Builds the domain's services from the manager as the modules before it in the list built it (BuiltBefore), so
   * reading a member a later module builds fails the typecheck, and for a list made at run time the start.
   */
  readonly build?: (m: ManagerBuild) => object;
  /** Stops what the domain's services run; called in the reverse order of the list when the manager closes. */
  readonly close?: (m: Manager) => void;
  /** Adds the domain's routes, each declared in its family's contract file (main/contract). */
  readonly routes?: (router: Router) => void;
  /** The domain's tables, numbered after the store's ledger (store/migrations.ts) in one global sequence. */
  readonly migrations?: readonly Migration[];
}

/** What the modules of a list build, merged: the services each one's `build` returns, by name. */
export type BuiltBy<Ms> = Ms extends readonly [infer M, ...infer Rest]
  ? (M extends { readonly build: (m: never) => infer S } ? Readonly<S> : unknown) & BuiltBy<Rest>
  : unknown;

/** The modules of a list that come before the one named N. */
export type ModulesBefore<Ms, N extends string> = Ms extends readonly [infer M extends { readonly name: string }, ...infer Rest]
  ? M['name'] extends N
    ? []
    : [M, ...ModulesBefore<Rest, N>]
  : [];

/** What most services are built from: the store, the clock, the events and only the tables they name. */
export function serviceDeps<K extends keyof DomainTables>(m: ManagerBase, ...tables: K[]) {
  return { store: m.store, clock: m.clock, events: m.events, tables: tablesFor(m.tables, ...tables) };
}
