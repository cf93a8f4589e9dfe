// The catalog of services.
import type { DomainModule } from '../module';
import { catalogRoutes } from './routes';

export const catalogModule: DomainModule = { name: 'catalog', routes: catalogRoutes };
