// Service certificates: the per-cluster service CAs and the ledger of the certificates they issued.
import type { DomainModule } from '../module';
import { certificatesMigrations } from './migrations';
import { certificateRoutes } from './routes';
import { Certificates } from './certificates';

declare module '../manager' {
  interface Manager {
    readonly certificates: Certificates;
  }
}

export const certificatesModule: DomainModule = {
  name: 'certificates',
  build: (m) => ({ certificates: new Certificates({ store: m.store, protector: m.protector, clock: m.clock }) }),
  routes: certificateRoutes,
  migrations: certificatesMigrations,
};
