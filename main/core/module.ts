// What a domain gives the manager, registered by one line of the module list (modules.ts): its tables, its services,
// its console routes and its schema migrations. The composition root (manager.ts) builds the base, then each module.
import type { DomainTables } from './domain-tables';
import type { Router } from './http/router';
import type { Manager, ManagerBuild } from './manager';
import type { Db } from './store/database';
import type { Migration } from './store/migrations';

export interface DomainModule {
  /** The domain's folder under main/core, for messages and the tests that walk the list. */
  readonly name: string;
  /** Builds the domain's tables on the store's database; the domain declares them in DomainTables (domain-tables.ts). */
  readonly tables?: (db: Db) => Partial<DomainTables>;
  /**
   * Builds the domain's services from the manager as built so far (the modules before it in the list); the domain
   * declares them in Manager (manager.ts). Reading a member a later module builds fails at start.
   */
  readonly build?: (m: ManagerBuild) => Partial<Manager>;
  /** Stops what the domain's services run; called in the reverse order of the list when the manager closes. */
  readonly close?: (m: Manager) => void;
  /** Adds the domain's routes, each declared in its family's contract file (main/contract). */
  readonly routes?: (router: Router) => void;
  /** The domain's tables, numbered after the store's ledger (store/migrations.ts) in one global sequence. */
  readonly migrations?: readonly Migration[];
}
