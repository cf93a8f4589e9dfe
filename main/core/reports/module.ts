// Acceptance reports of clusters.
import type { DomainModule } from '../module';
import { loadedCatalog } from '../catalog/loaded-catalog';
import { tablesFor } from '../domain-tables';
import { Reports } from './reports';
import { ReportsTable } from './reports-table';
import { reportRoutes } from './routes';

declare module '../domain-tables' {
  interface DomainTables {
    readonly reports: ReportsTable;
  }
}
declare module '../manager' {
  interface Manager {
    readonly reports: Reports;
  }
}

export const reportsModule: DomainModule = {
  name: 'reports',
  tables: (db) => ({ reports: new ReportsTable(db) }),
  build: (m) => {
    const services = m.services;
    return {
      reports: new Reports({
        store: m.store,
        tables: tablesFor(m.tables, 'clusterAccess', 'clusters', 'commands', 'keys', 'reports'),
        keyring: m.keyring,
        registration: m.registration,
        clock: m.clock,
        events: m.events,
        caPem: m.ca.certPem,
        managerVersion: m.version,
        preflight: m.preflight,
        listeners: m.listeners,
        services: {
          checkAll: (clusterId, actor) => services.checkAll(clusterId, actor),
          fetched: (clusterId, service) => services.fetched(clusterId, service),
          catalog: loadedCatalog(m.catalog),
        },
      }),
    };
  },
  routes: reportRoutes,
};
