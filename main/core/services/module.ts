// Catalog services installed on hosts clusters, and their backups.
import type { DomainModule } from '../module';
import { loadedCatalog } from '../catalog/loaded-catalog';
import { tablesFor } from '../domain-tables';
import { serviceRoutes } from './routes';
import { ServiceBackups } from './service-backups';
import { ServiceBackupsTables } from './service-backups-tables';
import { serviceBackupRoutes } from './service-backup-routes';
import { Services } from './services';
import { ServicesTables } from './services-tables';

declare module '../domain-tables' {
  interface DomainTables {
    readonly services: ServicesTables;
    readonly serviceBackups: ServiceBackupsTables;
  }
}
declare module '../manager' {
  interface Manager {
    /** Catalog services installed on hosts clusters, and their operations. */
    readonly services: Services;
    /** Backup sets and restores of the services of hosts clusters. */
    readonly serviceBackups: ServiceBackups;
  }
}

export const servicesModule: DomainModule = {
  name: 'services',
  tables: (db) => ({ services: new ServicesTables(db), serviceBackups: new ServiceBackupsTables(db) }),
  build: (m) => {
    const catalog = loadedCatalog(m.catalog);
    const services = new Services({
      certificates: m.certificates,
      store: m.store,
      tables: tablesFor(m.tables, 'commands', 'hosts', 'reports', 'serviceBackups', 'services'),
      clock: m.clock,
      catalog,
      hosts: m.hosts,
      hostCommands: m.hostCommands,
      lifecycle: m.lifecycle,
      events: m.events,
    });
    const serviceBackups = new ServiceBackups({
      store: m.store,
      tables: tablesFor(m.tables, 'hosts', 'serviceBackups', 'services'),
      clock: m.clock,
      catalog,
      hosts: m.hosts,
      services,
      lifecycle: m.lifecycle,
      events: m.events,
    });
    serviceBackups.resume();
    return { services, serviceBackups };
  },
  close: (m) => {
    m.serviceBackups.close();
    m.services.close();
  },
  routes: (router) => {
    serviceRoutes(router);
    serviceBackupRoutes(router);
  },
};
