// The sheet of an installed service.
import { loadedCatalog } from '../catalog/loaded-catalog';
import { sansBySerial } from '../certificates/fleet';
import { tablesFor } from '../domain-tables';
import type { BuiltBefore } from '../modules';
import { serviceSheetRoutes } from './routes';
import { ServiceSheets } from './service-sheet';

function build(m: BuiltBefore<'sheet'>) {
  return {
    /** The component sheet: a service as the agents observed it. */
    sheets: new ServiceSheets({
      tables: tablesFor(m.tables, 'clusters', 'hostMetrics', 'hosts'),
      clock: m.clock,
      catalog: loadedCatalog(m.catalog),
      services: m.services,
      drift: m.drift,
      commands: m.commands,
      hostCommands: m.hostCommands,
      certificateNames: (clusterId: string, service: string) =>
        sansBySerial(m.certificates.list().filter((c) => c.cluster_id === clusterId && c.service === service)),
    }),
  };
}

export const sheetModule = { name: 'sheet', build, routes: serviceSheetRoutes } as const;
