// Clusters CRUD (contract: contract/clusters.ts). Audit rows and `cluster.changed` come from the service.
import { noContent, ok, type Router } from '../http/router';

export function clusterRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters', 'viewer', ({ manager, query }) =>
    ok(manager.clusters.page({ limit: query.limit, after: query.after || undefined })),
  );

  router.authed('POST', '/api/v1/clusters', 'operator', ({ manager, body, principal }) => {
    const cluster = manager.clusters.create(body, principal.actor, principal.user.role);
    return ok(manager.clusters.view(cluster.id), 201);
  });

  router.authed('GET', '/api/v1/clusters/:id', 'viewer', ({ manager, params }) => ok(manager.clusters.view(params.id)));

  router.authed('PATCH', '/api/v1/clusters/:id', 'operator', ({ manager, params, body, principal }) => {
    manager.clusters.update(params.id, body, principal.actor);
    return ok(manager.clusters.view(params.id));
  });

  router.authed('DELETE', '/api/v1/clusters/:id', 'operator', async ({ manager, params, query, principal }) => {
    await manager.fourEyes.run(manager.fourEyes.clusterDeletion(params.id), principal.user, query.approval_id || undefined, (within) =>
      manager.clusters.remove(params.id, principal.actor, within),
    );
    return noContent();
  });

  router.authed('GET', '/api/v1/clusters/:id/agent', 'viewer', ({ manager, params }) => ok(manager.clusters.agentStatus(params.id)));
}
