// The catalog of services.
import { catalogRoutes } from './routes';

export const catalogModule = { name: 'catalog', routes: catalogRoutes } as const;
