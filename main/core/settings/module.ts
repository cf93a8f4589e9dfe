// Console settings.
import type { DomainModule } from '../module';
import { tablesFor } from '../domain-tables';
import { ConsoleSettings } from './console-settings';
import { settingsRoutes } from './routes';
import { SettingsTable } from './settings-table';

declare module '../domain-tables' {
  interface DomainTables {
    readonly settings: SettingsTable;
  }
}
declare module '../manager' {
  interface Manager {
    /** Remote audit target, DNS servers, CAs trusted for service endpoints. */
    readonly settings: ConsoleSettings;
  }
}

export const settingsModule: DomainModule = {
  name: 'settings',
  tables: (db) => ({ settings: new SettingsTable(db) }),
  build: (m) => {
    const syslog = m.syslog;
    return {
      settings: new ConsoleSettings({
        store: m.store,
        tables: tablesFor(m.tables, 'settings'),
        clock: m.clock,
        syslogStatus: () => syslog.status(),
      }),
    };
  },
  routes: settingsRoutes,
};
