// Hosts of hosts clusters: their node agents and signed plans.
import type { DomainModule } from '../module';
import { hostRoutes } from './routes';

export const hostsModule: DomainModule = { name: 'hosts', routes: hostRoutes };
