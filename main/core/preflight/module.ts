// Preflight: the checks run before an operation on a cluster (no routes of its own: the lifecycle runs them).
import { loadedCatalog } from '../catalog/loaded-catalog';
import { serviceDeps } from '../module';
import type { BuiltBefore } from '../modules';
import { Preflight } from './preflight';

function build(m: BuiltBefore<'preflight'>) {
  return {
    preflight: new Preflight({
      ...serviceDeps(m, 'clusterAccess', 'clusters', 'commands', 'hosts', 'lifecycle', 'reports', 'settings'),
      registration: m.registration,
      listeners: m.listeners,
      profiles: m.profiles,
      caPem: m.ca.certPem,
      managerVersion: m.version,
      catalog: loadedCatalog(m.catalog)(),
    }),
  };
}

export const preflightModule = { name: 'preflight', build } as const;
