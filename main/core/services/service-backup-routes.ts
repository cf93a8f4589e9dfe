// Backups of the services of hosts clusters (contract: contract/service-backups.ts): back up now, list the sets,
// restore one service from a set. Each backup and restore is an operation of signed plans (routes.ts).
import { ok, type Router } from '../http/router';
import { backupSetVisibleTo } from '../commands/command-visibility';

export function serviceBackupRoutes(router: Router): void {
  // Open to viewers, without a failed set's message below an operator when it quotes what a program printed.
  router.authed('GET', '/api/v1/clusters/:id/service-backups', 'viewer', ({ manager, params, query, principal }) =>
    ok({
      items: manager.serviceBackups
        .list(params.id, query.limit)
        .map((s) => backupSetVisibleTo(s, principal.user.role, (id) => manager.services.operation(id))),
    }),
  );

  router.authed('POST', '/api/v1/clusters/:id/service-backups', 'operator', async ({ manager, params, body, principal }) =>
    ok(await manager.serviceBackups.create(params.id, body, principal.user), 202),
  );

  router.authed('GET', '/api/v1/clusters/:id/service-backups/:set', 'viewer', ({ manager, params, principal }) =>
    ok(backupSetVisibleTo(manager.serviceBackups.get(params.id, params.set), principal.user.role, (id) => manager.services.operation(id))),
  );

  router.authed('POST', '/api/v1/clusters/:id/service-backups/:set/restore', 'operator', async ({ manager, params, body, principal }) =>
    ok(await manager.serviceBackups.restore(params.id, params.set, body, principal.user), 202),
  );
}
