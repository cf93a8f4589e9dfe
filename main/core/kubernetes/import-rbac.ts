// The least-privilege RBAC of the import identity `navin-import`, as the spec fixes it: read nodes,
// namespaces, CRDs, storage and ingress classes; read the CoreDNS Deployment only; write platform.navin.ai
// resources in the managed namespace only. Nothing on Secrets, workloads, RBAC or any other namespace.
import { parseAllDocuments } from 'yaml';
import crdYaml from '../../../resources/kubernetes/managedcomponent-crd.yaml?raw';
import { API_GROUP, IMPORT_SERVICE_ACCOUNT } from './names';
import { yamlDocuments } from './yaml-documents';

const READ = ['get', 'list', 'watch'];
const WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

export const CLUSTER_READ_RULES = [
  { apiGroups: [''], resources: ['nodes', 'namespaces'], verbs: READ },
  { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: READ },
  { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: READ },
  { apiGroups: ['networking.k8s.io'], resources: ['ingressclasses'], verbs: READ },
];

/** The ManagedComponent CRD, parsed from resources/kubernetes. */
export function managedComponentCrd(): Record<string, unknown> {
  const docs = parseAllDocuments(crdYaml);
  return docs[0]!.toJSON() as Record<string, unknown>;
}

export function importRbacObjects(namespace: string): object[] {
  const labels = { 'app.kubernetes.io/name': IMPORT_SERVICE_ACCOUNT, 'app.kubernetes.io/part-of': 'navin-platform' };
  const name = IMPORT_SERVICE_ACCOUNT;
  const subject = [{ kind: 'ServiceAccount', name, namespace }];
  const clusterRoleName = `${name}-${namespace}`;
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { 'app.kubernetes.io/part-of': 'navin-platform' } } },
    managedComponentCrd(),
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace, labels } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: clusterRoleName, labels },
      rules: CLUSTER_READ_RULES,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: clusterRoleName, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRoleName },
      subjects: subject,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: `${name}-coredns`, namespace: 'kube-system', labels },
      rules: [{ apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['coredns'], verbs: ['get'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: `${name}-coredns-${namespace}`, namespace: 'kube-system', labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `${name}-coredns` },
      subjects: subject,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name, namespace, labels },
      rules: [{ apiGroups: [API_GROUP], resources: ['*'], verbs: WRITE }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name, namespace, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: subject,
    },
  ];
}

export function importRbacYaml(namespace: string, clusterName: string): string {
  return yamlDocuments(
    importRbacObjects(namespace),
    `Navin Console: least-privilege import identity for cluster ${clusterName}.\nApply with a cluster-admin account: kubectl apply -f import-rbac.yaml\nThen: kubectl -n ${namespace} create token ${IMPORT_SERVICE_ACCOUNT}`,
  );
}
