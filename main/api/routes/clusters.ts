// Clusters CRUD (contract: contract/clusters.ts). Audit rows and `cluster.changed` come from the service.
import { objectBody } from '../body';
import { noContent, ok, type Router } from '../router';

export function clusterRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters', 'viewer', ({ manager }) => ok({ items: manager.clusters.views() }));

  router.authed('POST', '/api/v1/clusters', 'operator', ({ manager, body, principal }) => {
    const b = objectBody(body);
    const cluster = manager.clusters.create(
      { name: b.name, kind: b.kind, description: b.description, tenant: b.tenant, profile: b.profile, fqdn: b.fqdn, address: b.address },
      principal.actor,
      principal.user.role,
    );
    return ok(manager.clusters.view(cluster.id), 201);
  });

  router.authed('GET', '/api/v1/clusters/:id', 'viewer', ({ manager, params }) => ok(manager.clusters.view(params.id)));

  router.authed('PATCH', '/api/v1/clusters/:id', 'operator', ({ manager, params, body, principal }) => {
    const b = objectBody(body);
    manager.clusters.update(
      params.id,
      { name: b.name, kind: b.kind, description: b.description, tenant: b.tenant, profile: b.profile, fqdn: b.fqdn, address: b.address },
      principal.actor,
    );
    return ok(manager.clusters.view(params.id));
  });

  router.authed('DELETE', '/api/v1/clusters/:id', 'operator', ({ manager, params, principal }) => {
    manager.clusters.remove(params.id, principal.actor);
    return noContent();
  });

  router.authed('GET', '/api/v1/clusters/:id/agent', 'viewer', ({ manager, params }) => ok(manager.clusters.agentStatus(params.id)));
}
