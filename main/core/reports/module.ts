// Acceptance reports of clusters.
import { loadedCatalog } from '../catalog/loaded-catalog';
import { serviceDeps } from '../module';
import type { BuiltBefore } from '../modules';
import { Reports } from './reports';
import { ReportsTable } from './reports-table';
import { reportRoutes } from './routes';

function build(m: BuiltBefore<'reports'>) {
  const services = m.services;
  return {
    reports: new Reports({
      ...serviceDeps(m, 'clusterAccess', 'clusters', 'commands', 'keys', 'reports'),
      keyring: m.keyring,
      registration: m.registration,
      caPem: m.ca.certPem,
      managerVersion: m.version,
      preflight: m.preflight,
      listeners: m.listeners,
      services: {
        checkAll: (clusterId: string, actor: string) => services.checkAll(clusterId, actor),
        fetched: (clusterId: string, service: string) => services.fetched(clusterId, service),
        catalog: loadedCatalog(m.catalog),
      },
    }),
  };
}

export const reportsModule = { name: 'reports', tables: { reports: ReportsTable }, build, routes: reportRoutes } as const;
