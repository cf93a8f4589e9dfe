// The manager's signing keys and CA.
import type { DomainModule } from '../module';
import { CertificateAuthority } from './ca';
import { Keyring } from './keyring';
import { KeysTables } from './keys-tables';
import { keyRoutes } from './routes';
import { tablesFor } from '../domain-tables';

declare module '../domain-tables' {
  interface DomainTables {
    readonly keys: KeysTables;
  }
}
declare module '../manager' {
  interface Manager {
    readonly keyring: Keyring;
    readonly ca: CertificateAuthority;
  }
}

export const keysModule: DomainModule = {
  name: 'keys',
  tables: (db) => ({ keys: new KeysTables(db) }),
  build: (m) => ({
    keyring: Keyring.open(m.store, tablesFor(m.tables, 'keys'), m.protector, m.ed25519, m.clock),
    ca: CertificateAuthority.loadOrCreate(tablesFor(m.tables, 'keys'), m.protector, m.clock),
  }),
  routes: keyRoutes,
};
