// Backups of the services of hosts clusters (contract: contract/service-backups.ts): back up now, list the sets,
// restore one service from a set. Each backup and restore is an operation of signed plans (routes/services.ts).
import { objectBody } from '../body';
import { queryInt } from '../query';
import { ok, type Router } from '../router';

export function serviceBackupRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/service-backups', 'viewer', ({ manager, params, query }) =>
    ok({ items: manager.serviceBackups.list(params.id, queryInt(query, 'limit', { min: 1, max: 200 }, 50)) }),
  );

  router.authed('POST', '/api/v1/clusters/:id/service-backups', 'operator', async ({ manager, params, body, principal }) =>
    ok(await manager.serviceBackups.create(params.id, objectBody(body), principal.user), 202),
  );

  router.authed('GET', '/api/v1/clusters/:id/service-backups/:set', 'viewer', ({ manager, params }) =>
    ok(manager.serviceBackups.get(params.id, params.set)),
  );

  router.authed('POST', '/api/v1/clusters/:id/service-backups/:set/restore', 'operator', async ({ manager, params, body, principal }) =>
    ok(await manager.serviceBackups.restore(params.id, params.set, objectBody(body), principal.user), 202),
  );
}
