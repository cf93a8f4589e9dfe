// Offline bundles: the release keys trusted to sign them and the internal mirror they fill (its routes are the
// mirror domain's).
import { join } from 'node:path';
import type { DomainModule } from '../module';
import { loadedCatalog } from '../catalog/loaded-catalog';
import { tablesFor } from '../domain-tables';
import { IMPORT_DIR, MirrorService } from './mirror-service';
import { MirrorTables } from './mirror-tables';
import { ReleaseKeys } from './release-keys';

declare module '../domain-tables' {
  interface DomainTables {
    readonly mirror: MirrorTables;
  }
}
declare module '../manager' {
  interface Manager {
    /** The release public keys trusted to sign offline bundles. */
    readonly releaseKeys: ReleaseKeys;
    /** The internal mirror: what it holds, and bundle imports. */
    readonly mirror: MirrorService;
  }
}

export const bundleModule: DomainModule = {
  name: 'bundle',
  tables: (db) => ({ mirror: new MirrorTables(db) }),
  build: (m) => {
    const releaseKeys = new ReleaseKeys(m.store, tablesFor(m.tables, 'mirror'), m.keyring, m.clock);
    return {
      releaseKeys,
      mirror: new MirrorService({
        store: m.store,
        tables: tablesFor(m.tables, 'mirror', 'reports'),
        clock: m.clock,
        events: m.events,
        releaseKeys,
        ed25519: m.ed25519,
        catalog: loadedCatalog(m.catalog),
        importDir: join(m.dataDir, IMPORT_DIR),
      }),
    };
  },
};
