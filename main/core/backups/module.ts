// Configuration backups of Kubernetes clusters.
import type { DomainModule } from '../module';
import { backupRoutes } from './routes';

export const backupsModule: DomainModule = { name: 'backups', routes: backupRoutes };
