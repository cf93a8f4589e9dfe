// Commands to agents and the components they apply.
import type { DomainModule } from '../module';
import { tablesFor } from '../domain-tables';
import { Commands } from './commands';
import { CommandsTables } from './commands-tables';
import { commandRoutes } from './routes';

declare module '../domain-tables' {
  interface DomainTables {
    readonly commands: CommandsTables;
  }
}
declare module '../manager' {
  interface Manager {
    readonly commands: Commands;
  }
}

export const commandsModule: DomainModule = {
  name: 'commands',
  tables: (db) => ({ commands: new CommandsTables(db) }),
  build: (m) => ({
    commands: new Commands(m.store, tablesFor(m.tables, 'clusterAccess', 'clusters', 'commands'), m.keyring, m.clock, m.events),
  }),
  routes: commandRoutes,
};
