// Commands to agents and the components they apply.
import { tablesFor } from '../domain-tables';
import type { BuiltBefore } from '../modules';
import { Commands } from './commands';
import { CommandsTables } from './commands-tables';
import { commandRoutes } from './routes';

function build(m: BuiltBefore<'commands'>) {
  return {
    commands: new Commands(m.store, tablesFor(m.tables, 'clusterAccess', 'clusters', 'commands'), m.keyring, m.clock, m.events),
  };
}

export const commandsModule = { name: 'commands', tables: { commands: CommandsTables }, build, routes: commandRoutes } as const;
