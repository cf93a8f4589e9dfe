// Configuration backups of a cluster (contract: contract/backups.ts): take one now (operator), list them
// with each file's sha256, verify a set and restore one component from it.
import { ok, type Router } from '../http/router';
import { NotFoundError } from '../errors';
import { accepted } from '../commands/routes';

export function backupRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/backups', 'viewer', ({ manager, params }) => ok({ items: manager.backups.list(params.id) }));

  router.authed('POST', '/api/v1/clusters/:id/backups', 'operator', async ({ manager, params, principal }) =>
    ok(await manager.backups.run(params.id, principal.actor), 201),
  );

  router.authed('GET', '/api/v1/clusters/:id/backups/:set/verify', 'viewer', ({ manager, params }) => {
    const check = manager.backups.verify(params.set);
    if (check.cluster_id !== params.id) throw new NotFoundError('backup set of cluster', params.set);
    return ok(check);
  });

  // A restore re-applies one component's spec from the set, through the lifecycle gate (four-eyes included).
  router.authed('POST', '/api/v1/clusters/:id/backups/:set/restore', 'operator', async ({ manager, params, body, principal }) => {
    const spec = manager.backups.restorableSpec(params.id, params.set, body.service);
    return accepted(
      await manager.lifecycle.run(
        params.id,
        { kind: 'restore', name: body.service, spec, set: params.set },
        principal.user,
        body.approval_id || undefined,
      ),
    );
  });
}
