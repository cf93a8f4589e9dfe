// Kubernetes clusters: import RBAC, registration, the cluster agent and the inventory.
import { kubernetesRoutes } from './routes';

export const kubernetesModule = { name: 'kubernetes', routes: kubernetesRoutes } as const;
