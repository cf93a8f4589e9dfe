// The manager core, assembled: the composition root shared by the Electron shell and the headless CLI.
// It owns the data dir (0700), the store and the base every domain builds on; each module of the list (modules.ts)
// then builds its domain's tables and services, in list order.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock, type Clock } from './clock';
import { CoreError } from './errors';
import { CoreEvents } from './events';
import { headlessProtector, type KeyProtector } from './keys/protector';
import { Store } from './store/store';
import { openDomainTables, type DomainTables } from './domain-tables';
import type { BuiltBy, DomainModule } from './module';
import { MODULES, schemaMigrations } from './modules';
import { nodeEd25519 } from '../wire/ed25519-node';
import type { Ed25519 } from '../wire/ed25519';
import { VERSION } from './version';
import { Listeners } from './listeners';
import { loadBuiltinCatalog } from './catalog/catalog-builtin';
import type { CatalogFile, CatalogLoad } from './catalog/catalog-loader';
import { tryParseCatalog } from './catalog/catalog-loader';

export { VERSION };
export const DATABASE_FILE = 'navin.db';

export interface ManagerOptions {
  dataDir: string;
  mode: 'desktop' | 'headless';
  /** Seals private keys at rest; defaults to the headless key file or NAVIN_MASTER_KEY_FILE. */
  protector?: KeyProtector;
  clock?: Clock;
  ed25519?: Ed25519;
  /** Catalog descriptors instead of the shipped ones (tests of an invalid catalog). */
  catalogFiles?: CatalogFile[];
  /** The domains to build, in order; the module list (modules.ts) unless a test adds a fixture domain. */
  modules?: readonly DomainModule[];
}

/** What the manager is before any module builds: every module's build may read it. */
export interface ManagerBase {
  readonly dataDir: string;
  readonly mode: 'desktop' | 'headless';
  readonly version: string;
  readonly clock: Clock;
  readonly ed25519: Ed25519;
  readonly store: Store;
  /** Every domain's tables, built once here; each service is given only those it names (tests read them here). */
  readonly tables: DomainTables;
  readonly protector: KeyProtector;
  readonly events: CoreEvents;
  /** Where the console and gateway listeners of this process are (set by whoever starts them). */
  readonly listeners: Listeners;
  /** The service catalog as loaded at start, or why it is invalid (the catalog_valid rule reports it). */
  readonly catalog: CatalogLoad;
}

/**
 * The manager: its base and the services every module of the list builds (their members are what the modules'
 * `build` return). An interface, so that a fixture domain outside the list (a test's) can add its own by merging.
 */
export interface Manager extends ManagerBase, BuiltBy<typeof MODULES> {
  close(): void;
}

/**
 * What DomainModule's build is typed with: the manager but close. A listed module reads BuiltBefore instead; for a
 * list made at run time (a test's fixture domain), builtSoFar below refuses a member not built yet.
 */
export type ManagerBuild = Omit<Manager, 'close'>;

export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}

export function openManager(opts: ManagerOptions): Manager {
  ensureDataDir(opts.dataDir);
  const modules: readonly DomainModule[] = opts.modules ?? MODULES;
  const clock = opts.clock ?? systemClock;
  const ed25519 = opts.ed25519 ?? nodeEd25519;
  const protector = opts.protector ?? headlessProtector(opts.dataDir);
  const store = Store.open(join(opts.dataDir, DATABASE_FILE), clock, schemaMigrations(modules));
  try {
    const built: Record<string, unknown> = {
      dataDir: opts.dataDir,
      mode: opts.mode,
      version: VERSION,
      clock,
      ed25519,
      store,
      tables: openDomainTables(store.db, modules),
      protector,
      events: new CoreEvents(),
      listeners: new Listeners(),
      catalog: opts.catalogFiles ? tryParseCatalog(opts.catalogFiles) : loadBuiltinCatalog(),
    };
    for (const module of modules) {
      if (module.build) Object.assign(built, module.build(builtSoFar(built, module.name)));
    }
    const manager = built as unknown as Manager;
    return Object.assign(manager, {
      close: () => {
        for (const module of [...modules].reverse()) module.close?.(manager);
        store.close();
      },
    });
  } catch (error) {
    store.close();
    throw error;
  }
}

/**
 * The manager as built so far, for one module's build: a member no module before it has built fails loudly at
 * start, rather than reaching a service as undefined (the list's order is wrong, or a module is missing).
 */
function builtSoFar(built: Record<string, unknown>, module: string): ManagerBuild {
  return new Proxy(built, {
    get(target, key) {
      if (typeof key === 'string' && !(key in target)) {
        throw new CoreError('internal', `${module} reads ${key} before it is built`);
      }
      return Reflect.get(target, key) as unknown;
    },
  }) as unknown as ManagerBuild;
}
