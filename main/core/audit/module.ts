// The audit log and its remote forwarding.
import type { DomainModule } from '../module';
import { auditRoutes } from './routes';

export const auditModule: DomainModule = { name: 'audit', routes: auditRoutes };
