// Service certificates: the per-cluster service CAs and the ledger of the certificates they issued.
import type { BuiltBefore } from '../modules';
import { certificatesMigrations } from './migrations';
import { certificateRoutes } from './routes';
import { Certificates } from './certificates';

function build(m: BuiltBefore<'certificates'>) {
  return {
    certificates: new Certificates({ store: m.store, protector: m.protector, clock: m.clock }),
  };
}

export const certificatesModule = { name: 'certificates', build, routes: certificateRoutes, migrations: certificatesMigrations } as const;
