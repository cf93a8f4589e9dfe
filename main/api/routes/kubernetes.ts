// The import path of a Kubernetes cluster: the import RBAC, registration by kubeconfig, inventory, the agent
// identity and the agent manifests. Routes and queries as the spec names them.
import { ApiError } from '../api-error';
import { objectBody } from '../body';
import { ok, type Router } from '../router';
import { importRbacYaml } from '../../core/kubernetes/import-rbac';
import { agentManifestsYaml } from '../../core/kubernetes/agent-manifests';
import { checkNamespace } from '../../core/clusters/registration';
import { DEFAULT_NAMESPACE } from '../../core/kubernetes/names';

const YAML = 'application/yaml; charset=utf-8';

export function kubernetesRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/kubernetes/import-rbac', 'operator', ({ manager, params, query }) => {
    const cluster = manager.clusters.get(params.id!);
    const namespace = checkNamespace(query.get('namespace') ?? DEFAULT_NAMESPACE);
    return { status: 200, body: importRbacYaml(namespace, cluster.name), contentType: YAML };
  });

  router.authed('POST', '/api/v1/clusters/:id/kubernetes/registration', 'operator', async ({ manager, params, body, principal }) => {
    const b = objectBody(body);
    const result = await manager.registration.register(params.id!, b.kubeconfig, b.namespace, principal.actor);
    manager.events.emit('cluster.changed', { id: params.id });
    return ok(result);
  });

  router.authed('GET', '/api/v1/clusters/:id/inventory', 'viewer', ({ manager, params }) => {
    manager.clusters.get(params.id!);
    const snapshot = manager.store.clusterAccess.latestSnapshot(params.id!);
    if (!snapshot) throw new ApiError('not_found', 'no inventory yet: register the cluster or connect its agent');
    return ok({ cluster_id: snapshot.cluster_id, taken_at: snapshot.taken_at, source: snapshot.source, inventory: snapshot.data });
  });

  router.authed('POST', '/api/v1/clusters/:id/inventory/refresh', 'operator', async ({ manager, params, principal }) => {
    manager.clusters.get(params.id!);
    const result = await manager.registration.refreshInventory(params.id!, principal.actor);
    manager.events.emit('cluster.changed', { id: params.id });
    return ok({ cluster_id: params.id, source: 'import', ...result });
  });

  router.authed('POST', '/api/v1/clusters/:id/kubernetes/agent', 'operator', ({ manager, params, body, principal }) => {
    const b = objectBody(body);
    const identity = manager.agentIdentities.issue(params.id!, b.gateway_url, principal.actor, b.server_name, b.offline_after_s);
    manager.events.emit('cluster.changed', { id: params.id });
    return ok(identity, 201);
  });

  router.authed('GET', '/api/v1/clusters/:id/kubernetes/agent/manifests', 'operator', ({ manager, params, query }) => {
    const cluster = manager.clusters.get(params.id!);
    const namespace = manager.store.clusterAccess.access(cluster.id)?.namespace ?? DEFAULT_NAMESPACE;
    return { status: 200, body: agentManifestsYaml(namespace, query.get('image') ?? '', cluster.id, cluster.name), contentType: YAML };
  });
}
