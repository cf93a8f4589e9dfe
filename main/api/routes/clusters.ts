// Clusters CRUD.
import { objectBody } from '../body';
import { ok, type Router } from '../router';
import { clusterView } from '../../core/clusters/agent-status';

export function clusterRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters', 'viewer', ({ manager }) =>
    ok({ items: manager.clusters.list().map((c) => clusterView(manager.store, manager.clock, c)) }),
  );

  router.authed('POST', '/api/v1/clusters', 'operator', ({ manager, body, principal }) => {
    const b = objectBody(body);
    const cluster = manager.clusters.create(
      { name: b.name, description: b.description, tenant: b.tenant, profile: b.profile, fqdn: b.fqdn, address: b.address },
      principal.actor,
      principal.user.role,
    );
    manager.events.emit('cluster.changed', { id: cluster.id });
    return ok(clusterView(manager.store, manager.clock, cluster), 201);
  });

  router.authed('GET', '/api/v1/clusters/:id', 'viewer', ({ manager, params }) =>
    ok(clusterView(manager.store, manager.clock, manager.clusters.get(params.id!))),
  );

  router.authed('PATCH', '/api/v1/clusters/:id', 'operator', ({ manager, params, body, principal }) => {
    const b = objectBody(body);
    const cluster = manager.clusters.update(
      params.id!,
      { name: b.name, description: b.description, tenant: b.tenant, profile: b.profile, fqdn: b.fqdn, address: b.address },
      principal.actor,
    );
    manager.events.emit('cluster.changed', { id: cluster.id });
    return ok(clusterView(manager.store, manager.clock, cluster));
  });

  router.authed('DELETE', '/api/v1/clusters/:id', 'operator', ({ manager, params, principal }) => {
    manager.clusters.remove(params.id!, principal.actor);
    manager.events.emit('cluster.changed', { id: params.id });
    return { status: 204, body: null };
  });
}
