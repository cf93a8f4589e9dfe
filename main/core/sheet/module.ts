// The sheet of an installed service.
import type { DomainModule } from '../module';
import { loadedCatalog } from '../catalog/loaded-catalog';
import { tablesFor } from '../domain-tables';
import { serviceSheetRoutes } from './routes';
import { ServiceSheets } from './service-sheet';
import { sansBySerial } from '../certificates/fleet';

declare module '../manager' {
  interface Manager {
    /** The component sheet: a service as the agents observed it. */
    readonly sheets: ServiceSheets;
  }
}

export const sheetModule: DomainModule = {
  name: 'sheet',
  build: (m) => ({
    sheets: new ServiceSheets({
      tables: tablesFor(m.tables, 'clusters', 'hostMetrics', 'hosts'),
      clock: m.clock,
      catalog: loadedCatalog(m.catalog),
      services: m.services,
      drift: m.drift,
      commands: m.commands,
      hostCommands: m.hostCommands,
      certificateNames: (clusterId, service) =>
        sansBySerial(m.certificates.list().filter((c) => c.cluster_id === clusterId && c.service === service)),
    }),
  }),
  routes: serviceSheetRoutes,
};
