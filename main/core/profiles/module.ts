// Security profiles and their rules.
import type { DomainModule } from '../module';
import { profileRoutes } from './routes';

export const profilesModule: DomainModule = { name: 'profiles', routes: profileRoutes };
