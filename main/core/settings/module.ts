// Console settings.
import type { DomainModule } from '../module';
import { settingsRoutes } from './routes';

export const settingsModule: DomainModule = { name: 'settings', routes: settingsRoutes };
