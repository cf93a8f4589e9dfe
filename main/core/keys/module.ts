// The manager's signing keys and CA.
import { tablesFor } from '../domain-tables';
import type { BuiltBefore } from '../modules';
import { CertificateAuthority } from './ca';
import { Keyring } from './keyring';
import { KeysTables } from './keys-tables';
import { keyRoutes } from './routes';

function build(m: BuiltBefore<'keys'>) {
  return {
    keyring: Keyring.open(m.store, tablesFor(m.tables, 'keys'), m.protector, m.ed25519, m.clock),
    ca: CertificateAuthority.loadOrCreate(tablesFor(m.tables, 'keys'), m.protector, m.clock),
  };
}

export const keysModule = { name: 'keys', tables: { keys: KeysTables }, build, routes: keyRoutes } as const;
