// Offline bundles: the release keys trusted to sign them and the internal mirror they fill (its routes are the
// mirror domain's).
import { join } from 'node:path';
import { loadedCatalog } from '../catalog/loaded-catalog';
import { tablesFor } from '../domain-tables';
import { serviceDeps } from '../module';
import type { BuiltBefore } from '../modules';
import { IMPORT_DIR, MirrorService } from './mirror-service';
import { MirrorTables } from './mirror-tables';
import { ReleaseKeys } from './release-keys';

function build(m: BuiltBefore<'bundle'>) {
  const releaseKeys = new ReleaseKeys(m.store, tablesFor(m.tables, 'mirror'), m.keyring, m.clock);
  return {
    /** The release public keys trusted to sign offline bundles. */
    releaseKeys,
    /** The internal mirror: what it holds, and bundle imports. */
    mirror: new MirrorService({
      ...serviceDeps(m, 'mirror', 'reports'),
      releaseKeys,
      ed25519: m.ed25519,
      catalog: loadedCatalog(m.catalog),
      importDir: join(m.dataDir, IMPORT_DIR),
    }),
  };
}

export const bundleModule = { name: 'bundle', tables: { mirror: MirrorTables }, build } as const;
