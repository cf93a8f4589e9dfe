// Support archives, redacted.
import type { DomainModule } from '../module';
import { supportRoutes } from './routes';

export const supportModule: DomainModule = { name: 'support', routes: supportRoutes };
