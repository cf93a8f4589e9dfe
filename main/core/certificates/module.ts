// Service certificates: the per-cluster service CAs and the ledger of the certificates they issued.
import type { DomainModule } from '../module';
import { certificatesMigrations } from './migrations';
import { certificateRoutes } from './routes';

export const certificatesModule: DomainModule = {
  name: 'certificates',
  routes: certificateRoutes,
  migrations: certificatesMigrations,
};
