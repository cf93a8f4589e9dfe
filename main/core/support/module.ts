// Support archives, redacted.
import type { DomainModule } from '../module';
import { loadedCatalog } from '../catalog/loaded-catalog';
import { tablesFor } from '../domain-tables';
import { supportRoutes } from './routes';
import { SupportArchives } from './support-archives';

declare module '../manager' {
  interface Manager {
    /** Redacted support archives of hosts clusters. */
    readonly support: SupportArchives;
  }
}

export const supportModule: DomainModule = {
  name: 'support',
  build: (m) => {
    const registration = m.registration;
    return {
      support: new SupportArchives({
        store: m.store,
        tables: tablesFor(m.tables, 'accounts', 'hosts', 'services'),
        clock: m.clock,
        hosts: m.hosts,
        hostCommands: m.hostCommands,
        services: m.services,
        drift: m.drift,
        events: m.events,
        catalog: loadedCatalog(m.catalog),
        dataDir: m.dataDir,
        secrets: (clusterId) => {
          const access = registration.access(clusterId);
          return access ? [access.token] : [];
        },
      }),
    };
  },
  routes: supportRoutes,
};
