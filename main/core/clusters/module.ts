// Clusters: their records, agents and registration.
import type { DomainModule } from '../module';
import { clusterRoutes } from './routes';

export const clustersModule: DomainModule = { name: 'clusters', routes: clusterRoutes };
