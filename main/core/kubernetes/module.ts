// Kubernetes clusters: import RBAC, registration, the cluster agent and the inventory.
import type { DomainModule } from '../module';
import { kubernetesRoutes } from './routes';

export const kubernetesModule: DomainModule = { name: 'kubernetes', routes: kubernetesRoutes };
