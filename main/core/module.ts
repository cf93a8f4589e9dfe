// What a domain gives the manager, registered by one line of the module list (modules.ts): its console routes and
// its schema migrations. Its services are built by the composition root (manager.ts) from its folder.
import type { Router } from './http/router';
import type { Migration } from './store/migrations';

export interface DomainModule {
  /** The domain's folder under main/core, for messages and the tests that walk the list. */
  readonly name: string;
  /** Adds the domain's routes, each declared in its family's contract file (main/contract). */
  readonly routes?: (router: Router) => void;
  /** The domain's tables, numbered after the store's ledger (store/migrations.ts) in one global sequence. */
  readonly migrations?: readonly Migration[];
}
