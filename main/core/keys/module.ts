// The manager's signing keys and CA.
import type { DomainModule } from '../module';
import { keyRoutes } from './routes';

export const keysModule: DomainModule = { name: 'keys', routes: keyRoutes };
