// Configuration backups of Kubernetes clusters.
import { serviceDeps } from '../module';
import type { BuiltBefore } from '../modules';
import { Backups } from './backups';
import { backupRoutes } from './routes';

function build(m: BuiltBefore<'backups'>) {
  return {
    /** Configuration backups of the ManagedComponents of a cluster (allowed even while its profile is blocked). */
    backups: new Backups({
      ...serviceDeps(m, 'clusters', 'commands', 'lifecycle'),
      registration: m.registration,
      dataDir: m.dataDir,
    }),
  };
}

export const backupsModule = { name: 'backups', build, routes: backupRoutes } as const;
