// Configuration backups of a cluster: take one now (operator), list them with each file's sha256.
import type { Backups } from '../../core/backups/backups';
import type { Manager } from '../../core/manager';
import { ok, type Router } from '../router';

/** backupsOf picks the service from the manager (the composition root owns it). */
export function backupRoutes(router: Router, backupsOf: (manager: Manager) => Backups): void {
  router.authed('GET', '/api/v1/clusters/:id/backups', 'viewer', ({ manager, params }) => ok({ items: backupsOf(manager).list(params.id!) }));

  router.authed('POST', '/api/v1/clusters/:id/backups', 'operator', async ({ manager, params, principal }) => {
    const set = await backupsOf(manager).run(params.id!, principal.actor);
    manager.events.emit('backup.created', { id: set.id, cluster_id: set.cluster_id });
    return ok(set, 201);
  });
}
