// Clusters: their records, agents and registration.
import type { DomainModule } from '../module';
import { tablesFor } from '../domain-tables';
import { AgentIdentities } from './agent-identity';
import { ClusterAccessTables } from './cluster-access-tables';
import { Clusters } from './clusters';
import { ClustersTable } from './clusters-table';
import { Registration } from './registration';
import { clusterRoutes } from './routes';

declare module '../domain-tables' {
  interface DomainTables {
    readonly clusters: ClustersTable;
    readonly clusterAccess: ClusterAccessTables;
  }
}
declare module '../manager' {
  interface Manager {
    readonly clusters: Clusters;
    readonly registration: Registration;
    readonly agentIdentities: AgentIdentities;
  }
}

export const clustersModule: DomainModule = {
  name: 'clusters',
  tables: (db) => ({ clusters: new ClustersTable(db), clusterAccess: new ClusterAccessTables(db) }),
  build: (m) => ({
    registration: new Registration(m.store, tablesFor(m.tables, 'clusterAccess', 'clusters'), m.protector, m.clock, m.events),
    clusters: new Clusters(
      m.store,
      tablesFor(m.tables, 'clusterAccess', 'clusters', 'commands', 'hosts', 'keys', 'services'),
      m.clock,
      m.events,
    ),
    agentIdentities: new AgentIdentities(
      m.store,
      tablesFor(m.tables, 'clusterAccess', 'clusters', 'keys'),
      m.ca,
      m.keyring,
      m.clock,
      m.events,
    ),
  }),
  routes: clusterRoutes,
};
