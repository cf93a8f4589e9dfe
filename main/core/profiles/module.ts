// Security profiles and their rules.
import type { DomainModule } from '../module';
import { tablesFor } from '../domain-tables';
import { Profiles } from './profiles';
import { profileRoutes } from './routes';

declare module '../manager' {
  interface Manager {
    readonly profiles: Profiles;
  }
}

export const profilesModule: DomainModule = {
  name: 'profiles',
  build: (m) => {
    const syslog = m.syslog;
    return {
      profiles: new Profiles({
        catalog: m.catalog,
        tables: tablesFor(m.tables, 'clusterAccess', 'clusters', 'commands', 'reports', 'settings'),
        clock: m.clock,
        registration: m.registration,
        accounts: m.accounts,
        listeners: m.listeners,
        caPem: m.ca.certPem,
        mode: m.mode,
        syslogStatus: () => syslog.status(),
      }),
    };
  },
  routes: profileRoutes,
};
