// Preflight: the checks run before an operation on a cluster (no routes of its own: the lifecycle runs them).
import type { DomainModule } from '../module';
import { loadedCatalog } from '../catalog/loaded-catalog';
import { tablesFor } from '../domain-tables';
import { Preflight } from './preflight';

declare module '../manager' {
  interface Manager {
    readonly preflight: Preflight;
  }
}

export const preflightModule: DomainModule = {
  name: 'preflight',
  build: (m) => ({
    preflight: new Preflight({
      store: m.store,
      tables: tablesFor(m.tables, 'clusterAccess', 'clusters', 'commands', 'hosts', 'lifecycle', 'reports', 'settings'),
      clock: m.clock,
      registration: m.registration,
      listeners: m.listeners,
      profiles: m.profiles,
      caPem: m.ca.certPem,
      managerVersion: m.version,
      catalog: loadedCatalog(m.catalog)(),
      events: m.events,
    }),
  }),
};
