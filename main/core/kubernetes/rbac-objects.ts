// The RBAC of a workload of ours, in the order kubectl applies it: its ServiceAccount, a ClusterRole and its
// binding (named <name>-<namespace>, so two managed namespaces do not share one), a Role and its binding.
export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}

export function serviceAccountRbac(
  name: string,
  namespace: string,
  labels: Record<string, string>,
  rules: { cluster: PolicyRule[]; namespace: PolicyRule[] },
): object[] {
  const subjects = [{ kind: 'ServiceAccount', name, namespace }];
  const clusterRoleName = `${name}-${namespace}`;
  const rbac = 'rbac.authorization.k8s.io';
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace, labels } },
    { apiVersion: `${rbac}/v1`, kind: 'ClusterRole', metadata: { name: clusterRoleName, labels }, rules: rules.cluster },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: clusterRoleName, labels },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: clusterRoleName },
      subjects,
    },
    { apiVersion: `${rbac}/v1`, kind: 'Role', metadata: { name, namespace, labels }, rules: rules.namespace },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name, namespace, labels },
      roleRef: { apiGroup: rbac, kind: 'Role', name },
      subjects,
    },
  ];
}
