// Catalog services installed on hosts clusters, and their backups.
import { loadedCatalog } from '../catalog/loaded-catalog';
import type { Router } from '../http/router';
import type { Manager } from '../manager';
import { serviceDeps } from '../module';
import type { BuiltBefore } from '../modules';
import { serviceRoutes } from './routes';
import { ServiceBackups } from './service-backups';
import { ServiceBackupsTables } from './service-backups-tables';
import { serviceBackupRoutes } from './service-backup-routes';
import { renewalRoutes } from './renewal-routes';
import { Services } from './services';
import { ServicesTables } from './services-tables';

function build(m: BuiltBefore<'services'>) {
  const catalog = loadedCatalog(m.catalog);
  const services = new Services({
    certificates: m.certificates,
    ...serviceDeps(m, 'commands', 'hosts', 'reports', 'serviceBackups', 'services'),
    catalog,
    hosts: m.hosts,
    hostCommands: m.hostCommands,
    lifecycle: m.lifecycle,
  });
  const serviceBackups = new ServiceBackups({
    ...serviceDeps(m, 'hosts', 'serviceBackups', 'services'),
    catalog,
    hosts: m.hosts,
    services,
    lifecycle: m.lifecycle,
  });
  serviceBackups.resume();
  return {
    /** Catalog services installed on hosts clusters, and their operations. */
    services,
    /** Backup sets and restores of the services of hosts clusters. */
    serviceBackups,
  };
}

function close(m: Manager): void {
  m.serviceBackups.close();
  m.services.close();
}

function routes(router: Router): void {
  serviceRoutes(router);
  serviceBackupRoutes(router);
  renewalRoutes(router);
}

export const servicesModule = {
  name: 'services',
  tables: { services: ServicesTables, serviceBackups: ServiceBackupsTables },
  build,
  close,
  routes,
} as const;
