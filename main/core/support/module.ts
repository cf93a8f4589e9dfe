// Support archives, redacted.
import { loadedCatalog } from '../catalog/loaded-catalog';
import { serviceDeps } from '../module';
import type { BuiltBefore } from '../modules';
import { supportRoutes } from './routes';
import { SupportArchives } from './support-archives';

function build(m: BuiltBefore<'support'>) {
  const registration = m.registration;
  return {
    /** Redacted support archives of hosts clusters. */
    support: new SupportArchives({
      ...serviceDeps(m, 'accounts', 'hosts', 'services'),
      hosts: m.hosts,
      hostCommands: m.hostCommands,
      services: m.services,
      drift: m.drift,
      catalog: loadedCatalog(m.catalog),
      dataDir: m.dataDir,
      secrets: (clusterId: string) => {
        const access = registration.access(clusterId);
        return access ? [access.token] : [];
      },
    }),
  };
}

export const supportModule = { name: 'support', build, routes: supportRoutes } as const;
