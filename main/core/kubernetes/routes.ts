// The import path of a Kubernetes cluster (contract: contract/kubernetes.ts): the import RBAC, registration
// by kubeconfig, inventory, the agent identity and the agent manifests. Routes and queries as the spec names them.
import { ok, text, type Router } from '../http/router';
import { importRbacYaml } from './import-rbac';
import { agentManifestsYaml } from './agent-manifests';
import { checkNamespace } from '../clusters/registration';
import { DEFAULT_NAMESPACE } from './names';
import { YAML_MEDIA as YAML } from '../../contract/kubernetes';

export function kubernetesRoutes(router: Router): void {
  router.authed('GET', '/api/v1/clusters/:id/kubernetes/import-rbac', 'operator', ({ manager, params, query }) => {
    const cluster = manager.clusters.get(params.id);
    const namespace = checkNamespace(query.namespace ?? DEFAULT_NAMESPACE);
    return text(importRbacYaml(namespace, cluster.name), YAML);
  });

  router.authed('POST', '/api/v1/clusters/:id/kubernetes/registration', 'operator', async ({ manager, params, body, principal }) => {
    return ok(await manager.registration.register(params.id, body.kubeconfig, body.namespace, principal.actor));
  });

  router.authed('GET', '/api/v1/clusters/:id/inventory', 'viewer', ({ manager, params }) => ok(manager.registration.inventory(params.id)));

  router.authed('POST', '/api/v1/clusters/:id/inventory/refresh', 'operator', async ({ manager, params, principal }) => {
    const result = await manager.registration.refreshInventory(params.id, principal.actor);
    return ok({ cluster_id: params.id, source: 'import', ...result });
  });

  router.authed('POST', '/api/v1/clusters/:id/kubernetes/agent', 'operator', async ({ manager, params, body, principal }) => {
    const identity = await manager.fourEyes.run(
      manager.fourEyes.clusterIdentity(params.id),
      principal.user,
      body.approval_id || undefined,
      (within) =>
        manager.agentIdentities.issue(params.id, body.gateway_url, principal.actor, body.server_name, body.offline_after_s, within),
    );
    return ok(identity, 201);
  });

  router.authed('GET', '/api/v1/clusters/:id/kubernetes/agent/manifests', 'operator', ({ manager, params, query }) => {
    const cluster = manager.clusters.get(params.id);
    const namespace = manager.registration.namespace(cluster.id);
    return text(agentManifestsYaml(namespace, query.image ?? '', cluster.id, cluster.name), YAML);
  });
}
