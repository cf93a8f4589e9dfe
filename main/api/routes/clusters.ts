// Clusters CRUD (contract: contract/clusters.ts). Audit rows and `cluster.changed` come from the service.
import { objectBody } from '../body';
import { LIMIT_RANGE, queryInt, queryString } from '../query';
import { noContent, ok, type Router } from '../router';

/** The longest cluster name (a DNS-1123 subdomain), so the longest cursor. */
const MAX_NAME = 253;

export function clusterRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters', 'viewer', ({ manager, query }) =>
    ok(manager.clusters.page({ limit: queryInt(query, 'limit', LIMIT_RANGE), after: queryString(query, 'after', MAX_NAME) })),
  );

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

  router.authed('DELETE', '/api/v1/clusters/:id', 'operator', async ({ manager, params, query, principal }) => {
    const approvalId = query.get('approval_id') || undefined;
    await manager.fourEyes.run(manager.fourEyes.clusterDeletion(params.id), principal.user, approvalId, (within) =>
      manager.clusters.remove(params.id, principal.actor, within),
    );
    return noContent();
  });

  router.authed('GET', '/api/v1/clusters/:id/agent', 'viewer', ({ manager, params }) => ok(manager.clusters.agentStatus(params.id)));
}
