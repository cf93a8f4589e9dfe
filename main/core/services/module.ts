// Catalog services installed on hosts clusters, and their backups.
import type { DomainModule } from '../module';
import { serviceRoutes } from './routes';
import { serviceBackupRoutes } from './service-backup-routes';

export const servicesModule: DomainModule = {
  name: 'services',
  routes: (router) => {
    serviceRoutes(router);
    serviceBackupRoutes(router);
  },
};
