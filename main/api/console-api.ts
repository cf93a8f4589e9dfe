// The console API: every route of /api/v1, assembled once for both transports.
import { Router } from './router';
import { clusterRoutes } from './routes/clusters';
import { kubernetesRoutes } from './routes/kubernetes';
import { commandRoutes } from './routes/commands';
import { auditRoutes } from './routes/audit';
import { userRoutes } from './routes/users';
import { keyRoutes } from './routes/keys';
import { sessionRoutes } from './routes/session';
import { systemRoutes } from './routes/system';
import { reportRoutes } from './routes/reports';
import { profileRoutes } from './routes/profiles';
import { approvalRoutes } from './routes/approvals';
import { backupRoutes } from './routes/backups';
import { settingsRoutes } from './routes/settings';
import { hostRoutes } from './routes/hosts';
import { serviceRoutes } from './routes/services';
import { serviceBackupRoutes } from './routes/service-backups';
import { driftRoutes } from './routes/drift';
import { supportRoutes } from './routes/support';
import { catalogRoutes } from './routes/catalog';
import { mirrorRoutes } from './routes/mirror';
import { tokenRoutes } from './routes/tokens';

export function consoleApi(): Router {
  const router = new Router();
  systemRoutes(router);
  sessionRoutes(router);
  clusterRoutes(router);
  kubernetesRoutes(router);
  commandRoutes(router);
  auditRoutes(router);
  userRoutes(router);
  reportRoutes(router);
  keyRoutes(router);
  profileRoutes(router);
  approvalRoutes(router, (manager) => manager.approvals);
  backupRoutes(router, (manager) => manager.backups);
  settingsRoutes(router);
  hostRoutes(router);
  serviceRoutes(router);
  serviceBackupRoutes(router);
  driftRoutes(router);
  supportRoutes(router);
  catalogRoutes(router);
  mirrorRoutes(router);
  tokenRoutes(router);
  return router;
}
