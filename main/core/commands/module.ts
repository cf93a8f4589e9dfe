// Commands to agents and the components they apply.
import type { DomainModule } from '../module';
import { commandRoutes } from './routes';

export const commandsModule: DomainModule = { name: 'commands', routes: commandRoutes };
