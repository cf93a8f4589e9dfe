// Drift between the desired and the observed state.
import { serviceDeps } from '../module';
import type { BuiltBefore } from '../modules';
import { Drift } from './drift';
import { DriftTables } from './drift-tables';
import { driftRoutes } from './routes';

function build(m: BuiltBefore<'drift'>) {
  return {
    /** Drift findings of hosts clusters (scans on demand; every hour once startSchedule is called). */
    drift: new Drift({
      ...serviceDeps(m, 'clusters', 'commands', 'drift', 'hosts', 'services'),
      hosts: m.hosts,
      hostCommands: m.hostCommands,
      services: m.services,
    }),
  };
}

export const driftModule = { name: 'drift', tables: { drift: DriftTables }, build, routes: driftRoutes } as const;
