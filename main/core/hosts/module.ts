// Hosts of hosts clusters: their node agents and signed plans.
import { loadedCatalog } from '../catalog/loaded-catalog';
import { tablesFor } from '../domain-tables';
import type { BuiltBefore } from '../modules';
import { hostTlsObserver } from '../profiles/host-tls-observer';
import { HostCommands } from './host-commands';
import { HostIdentities } from './host-identity';
import { HostMetricsTable } from './host-metrics-table';
import { Hosts } from './hosts';
import { HostsTables } from './hosts-tables';
import { hostRoutes } from './routes';

function build(m: BuiltBefore<'hosts'>) {
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
    /** Hosts of clusters of kind hosts, their node agent identities and the signed commands (plans) sent to them. */
    hosts,
    hostIdentities: new HostIdentities(m.store, tablesFor(tables, 'hosts'), hosts, m.ca, m.keyring, m.clock, m.version, m.events),
    hostCommands,
  };
}

export const hostsModule = {
  name: 'hosts',
  tables: { hosts: HostsTables, hostMetrics: HostMetricsTable },
  build,
  routes: hostRoutes,
} as const;
