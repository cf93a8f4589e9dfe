// Acceptance reports of clusters.
import type { DomainModule } from '../module';
import { reportRoutes } from './routes';

export const reportsModule: DomainModule = { name: 'reports', routes: reportRoutes };
