// Drift between the desired and the observed state.
import type { DomainModule } from '../module';
import { tablesFor } from '../domain-tables';
import { Drift } from './drift';
import { DriftTables } from './drift-tables';
import { driftRoutes } from './routes';

declare module '../domain-tables' {
  interface DomainTables {
    readonly drift: DriftTables;
  }
}
declare module '../manager' {
  interface Manager {
    /** Drift findings of hosts clusters (scans on demand; every hour once startSchedule is called). */
    readonly drift: Drift;
  }
}

export const driftModule: DomainModule = {
  name: 'drift',
  tables: (db) => ({ drift: new DriftTables(db) }),
  build: (m) => ({
    drift: new Drift({
      store: m.store,
      tables: tablesFor(m.tables, 'clusters', 'commands', 'drift', 'hosts', 'services'),
      clock: m.clock,
      hosts: m.hosts,
      hostCommands: m.hostCommands,
      services: m.services,
      events: m.events,
    }),
  }),
  routes: driftRoutes,
};
