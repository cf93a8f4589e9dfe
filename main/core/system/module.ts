// Health, version and the OpenAPI document of the console API.
import type { DomainModule } from '../module';
import { systemRoutes } from './routes';

export const systemModule: DomainModule = { name: 'system', routes: systemRoutes };
