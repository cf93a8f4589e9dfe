// What the services of hosts clusters are given by the composition root, shared by the files that run their
// operations, so none of them imports another only for this shape.
import type { Catalog } from '../catalog/catalog';
import type { Clock } from '../clock';
import type { CoreEvents } from '../events';
import type { HostCommands } from '../hosts/host-commands';
import type { Hosts } from '../hosts/hosts';
import type { Lifecycle } from '../lifecycle/lifecycle';
import type { Tables } from '../domain-tables';
import type { Store } from '../store/store';
import type { ServiceCertificates } from './service-tls';

export interface ServicesDeps {
  store: Store;
  tables: Tables<'commands' | 'hosts' | 'reports' | 'serviceBackups' | 'services'>;
  clock: Clock;
  catalog: () => Catalog | null;
  hosts: Hosts;
  hostCommands: HostCommands;
  lifecycle: Lifecycle;
  events: CoreEvents;
  /** The cluster's service CA and the ledger of the certificates it signed. */
  certificates: ServiceCertificates;
}
