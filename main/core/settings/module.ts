// Console settings.
import { tablesFor } from '../domain-tables';
import type { BuiltBefore } from '../modules';
import { ConsoleSettings } from './console-settings';
import { settingsRoutes } from './routes';
import { SettingsTable } from './settings-table';

function build(m: BuiltBefore<'settings'>) {
  const syslog = m.syslog;
  return {
    /** Remote audit target, DNS servers, CAs trusted for service endpoints. */
    settings: new ConsoleSettings({
      store: m.store,
      tables: tablesFor(m.tables, 'settings'),
      clock: m.clock,
      syslogStatus: () => syslog.status(),
    }),
  };
}

export const settingsModule = { name: 'settings', tables: { settings: SettingsTable }, build, routes: settingsRoutes } as const;
