// Configuration backups of Kubernetes clusters.
import type { DomainModule } from '../module';
import { tablesFor } from '../domain-tables';
import { Backups } from './backups';
import { backupRoutes } from './routes';

declare module '../manager' {
  interface Manager {
    /** Configuration backups of the ManagedComponents of a cluster (allowed even while its profile is blocked). */
    readonly backups: Backups;
  }
}

export const backupsModule: DomainModule = {
  name: 'backups',
  build: (m) => ({
    backups: new Backups({
      store: m.store,
      tables: tablesFor(m.tables, 'clusters', 'commands', 'lifecycle'),
      registration: m.registration,
      clock: m.clock,
      dataDir: m.dataDir,
      events: m.events,
    }),
  }),
  routes: backupRoutes,
};
