// Drift between the desired and the observed state.
import type { DomainModule } from '../module';
import { driftRoutes } from './routes';

export const driftModule: DomainModule = { name: 'drift', routes: driftRoutes };
