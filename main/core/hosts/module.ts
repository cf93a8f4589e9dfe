// Hosts of hosts clusters: their node agents and signed plans.
import type { DomainModule } from '../module';
import { loadedCatalog } from '../catalog/loaded-catalog';
import { tablesFor } from '../domain-tables';
import { hostTlsObserver } from '../profiles/host-tls-observer';
import { HostCommands } from './host-commands';
import { HostIdentities } from './host-identity';
import { HostMetricsTable } from './host-metrics-table';
import { Hosts } from './hosts';
import { HostsTables } from './hosts-tables';
import { hostRoutes } from './routes';

declare module '../domain-tables' {
  interface DomainTables {
    readonly hosts: HostsTables;
    readonly hostMetrics: HostMetricsTable;
  }
}
declare module '../manager' {
  interface Manager {
    /** Hosts of clusters of kind hosts, their node agent identities and the signed commands (plans) sent to them. */
    readonly hosts: Hosts;
    readonly hostIdentities: HostIdentities;
    readonly hostCommands: HostCommands;
  }
}

export const hostsModule: DomainModule = {
  name: 'hosts',
  tables: (db) => ({ hosts: new HostsTables(db), hostMetrics: new HostMetricsTable(db) }),
  build: (m) => {
    const { tables } = m;
    const hosts = new Hosts(m.store, tablesFor(tables, 'clusters', 'hosts'), m.clock, m.events);
    const hostCommands = new HostCommands(
      m.store,
      tablesFor(tables, 'commands', 'hostMetrics', 'hosts'),
      hosts,
      m.keyring,
      m.clock,
      m.commands,
      m.events,
      m.profiles,
    );
    const catalog = loadedCatalog(m.catalog);
    // Plans that only check: no four eyes, as a drift scan or a journal read.
    m.profiles.observeHostTlsWith(
      hostTlsObserver({
        installed: (clusterId) => tables.services.list(clusterId),
        host: (id) => tables.hosts.get(id),
        descriptor: (service) => catalog()?.service(service),
        issuePlan: (hostId, args, actor) => hostCommands.issuePlan(hostId, args, actor, { allowFourEyes: true }),
        waitEnded: (ids, timeoutMs) => hostCommands.waitEnded(ids, timeoutMs),
        command: (id) => tables.commands.get(id),
      }),
    );
    return {
      hosts,
      hostIdentities: new HostIdentities(m.store, tablesFor(tables, 'hosts'), hosts, m.ca, m.keyring, m.clock, m.version, m.events),
      hostCommands,
    };
  },
  routes: hostRoutes,
};
