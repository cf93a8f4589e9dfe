// Four-eyes approvals.
import type { DomainModule } from '../module';
import { approvalRoutes } from './routes';

export const approvalsModule: DomainModule = { name: 'approvals', routes: approvalRoutes };
