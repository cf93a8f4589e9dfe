// Clusters: their records, agents and registration.
import { tablesFor } from '../domain-tables';
import type { BuiltBefore } from '../modules';
import { AgentIdentities } from './agent-identity';
import { ClusterAccessTables } from './cluster-access-tables';
import { Clusters } from './clusters';
import { ClustersTable } from './clusters-table';
import { Registration } from './registration';
import { clusterRoutes } from './routes';

function build(m: BuiltBefore<'clusters'>) {
  return {
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
  };
}

export const clustersModule = {
  name: 'clusters',
  tables: { clusters: ClustersTable, clusterAccess: ClusterAccessTables },
  build,
  routes: clusterRoutes,
} as const;
