// The offline mirror of images and artifacts.
import type { DomainModule } from '../module';
import { mirrorRoutes } from './routes';

export const mirrorModule: DomainModule = { name: 'mirror', routes: mirrorRoutes };
