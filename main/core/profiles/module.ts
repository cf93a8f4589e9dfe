// Security profiles and their rules.
import { tablesFor } from '../domain-tables';
import type { BuiltBefore } from '../modules';
import { Profiles } from './profiles';
import { profileRoutes } from './routes';

function build(m: BuiltBefore<'profiles'>) {
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
}

export const profilesModule = { name: 'profiles', build, routes: profileRoutes } as const;
