// Checks a kubeconfig at registration, in the order an operator would fix things: reachable, TLS trusted,
// token accepted, API version supported, then every permission the import identity needs, naming the first missing.
import { AuthorizationV1Api, VersionApi } from '@kubernetes/client-node';
import { API_GROUP, MANAGED_COMPONENT_PLURAL } from './names';
import { classifyKubeError, kubeConfigFor, KubeError, type ClusterAccess } from './kube-client';

export const MIN_MINOR_VERSION = 25;

interface Permission {
  verb: string;
  group: string;
  resource: string;
  namespace?: string;
  name?: string;
}

export function requiredPermissions(namespace: string): Permission[] {
  return [
    { verb: 'list', group: '', resource: 'nodes' },
    { verb: 'list', group: '', resource: 'namespaces' },
    { verb: 'list', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'list', group: 'storage.k8s.io', resource: 'storageclasses' },
    { verb: 'list', group: 'networking.k8s.io', resource: 'ingressclasses' },
    { verb: 'get', group: 'apps', resource: 'deployments', namespace: 'kube-system', name: 'coredns' },
    ...['get', 'list', 'create', 'update', 'delete'].map((verb) => ({
      verb,
      group: API_GROUP,
      resource: MANAGED_COMPONENT_PLURAL,
      namespace,
    })),
  ];
}

const describe = (p: Permission): string =>
  `${p.verb} ${p.resource}${p.group ? `.${p.group}` : ''}${p.name ? ` "${p.name}"` : ''} ${p.namespace ? `in namespace ${p.namespace}` : 'at cluster scope'}`;

export interface CheckedAccess {
  kubernetes_version: string;
}

export async function checkClusterAccess(access: ClusterAccess, namespace: string): Promise<CheckedAccess> {
  const kc = kubeConfigFor(access);
  let gitVersion: string;
  let minor: number;
  try {
    const v = await kc.makeApiClient(VersionApi).getCode();
    gitVersion = v.gitVersion;
    minor = Number.parseInt(v.minor, 10);
  } catch (error) {
    throw classifyKubeError(error, access.server);
  }
  if (!Number.isFinite(minor) || minor < MIN_MINOR_VERSION) {
    throw new KubeError(
      'api_version_unsupported',
      `Kubernetes ${gitVersion} is not supported: the manager needs 1.${MIN_MINOR_VERSION} or newer`,
    );
  }
  const authz = kc.makeApiClient(AuthorizationV1Api);
  for (const p of requiredPermissions(namespace)) {
    let allowed: boolean;
    try {
      const review = await authz.createSelfSubjectAccessReview({
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: { verb: p.verb, group: p.group, resource: p.resource, namespace: p.namespace, name: p.name } },
        },
      });
      allowed = review.status?.allowed === true;
    } catch (error) {
      throw classifyKubeError(error, access.server);
    }
    if (!allowed)
      throw new KubeError('permission_missing', `the token may not ${describe(p)}: apply the import RBAC YAML of this cluster`, {
        permission: p,
      });
  }
  return { kubernetes_version: gitVersion };
}
