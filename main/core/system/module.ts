// Health, version and the OpenAPI document of the console API.
import { systemRoutes } from './routes';

export const systemModule = { name: 'system', routes: systemRoutes } as const;
