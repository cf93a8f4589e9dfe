// The agent's manifests, as the spec's "RBAC de l'agent" fixes them: a ServiceAccount, a read-only ClusterRole,
// a Role in the managed namespace for its Lease, its state ConfigMap, events and platform.navin.ai resources
// (no workload), and a hardened 2-replica Deployment pinned to an image digest. No Service. One Secret right
// beyond the spec (issue 34): get and update of its own identity Secret, by name, where it keeps the certificate
// it renews, since its pod mounts that Secret read-only and a pair kept in memory would die with the pod.
import { AGENT_IDENTITY_SECRET, AGENT_LEASE, AGENT_NAME, AGENT_STATE_CONFIGMAP, API_GROUP } from './names';
import { CLUSTER_READ_RULES } from './import-rbac';
import { checkImage } from './image-reference';
import { operatorObjects } from './operator-manifests';
import { serviceAccountRbac } from './rbac-objects';
import { hardenedContainer, hardenedPod } from './container-hardening';
import { yamlDocuments } from './yaml-documents';

export { checkImage, IMAGE_BY_DIGEST } from './image-reference';
export const IDENTITY_MOUNT = '/etc/navin-agent';
export const INBOX_MOUNT = '/var/lib/navin-agent/inbox';

export function agentObjects(namespace: string, image: string, clusterId: string): object[] {
  checkImage(image);
  const labels = { 'app.kubernetes.io/name': AGENT_NAME, 'app.kubernetes.io/part-of': 'navin-platform' };
  return [
    ...serviceAccountRbac(AGENT_NAME, namespace, labels, {
      cluster: [...CLUSTER_READ_RULES, { nonResourceURLs: ['/version', '/api', '/apis'], verbs: ['get'] }],
      namespace: [
        // RBAC cannot restrict create by name: create is granted on the kind, every later access on the one name.
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [AGENT_LEASE], verbs: ['get', 'update'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['create'] },
        { apiGroups: [''], resources: ['configmaps'], resourceNames: [AGENT_STATE_CONFIGMAP], verbs: ['get', 'update'] },
        { apiGroups: [''], resources: ['secrets'], resourceNames: [AGENT_IDENTITY_SECRET], verbs: ['get', 'update'] },
        { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
        { apiGroups: [API_GROUP], resources: ['*'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
      ],
    }),
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: AGENT_NAME, namespace, labels: { ...labels, 'platform.navin.ai/cluster-id': clusterId } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { 'app.kubernetes.io/name': AGENT_NAME } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
        template: {
          metadata: { labels },
          spec: {
            ...hardenedPod(AGENT_NAME),
            affinity: {
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  { labelSelector: { matchLabels: { 'app.kubernetes.io/name': AGENT_NAME } }, topologyKey: 'kubernetes.io/hostname' },
                ],
              },
            },
            containers: [
              {
                name: 'agent',
                image,
                imagePullPolicy: 'IfNotPresent',
                args: ['--identity-dir', IDENTITY_MOUNT, '--inbox', INBOX_MOUNT],
                env: [
                  { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                  { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                ],
                ...hardenedContainer(),
                volumeMounts: [
                  { name: 'identity', mountPath: IDENTITY_MOUNT, readOnly: true },
                  { name: 'inbox', mountPath: INBOX_MOUNT },
                  { name: 'tmp', mountPath: '/tmp' },
                ],
              },
            ],
            volumes: [
              { name: 'identity', secret: { secretName: AGENT_IDENTITY_SECRET, defaultMode: 0o440 } },
              { name: 'inbox', emptyDir: { sizeLimit: '16Mi' } },
              { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '16Mi' } },
            ],
          },
        },
      },
    },
  ];
}

export function agentManifestsYaml(namespace: string, image: string, clusterId: string, clusterName: string): string {
  return yamlDocuments(
    [...agentObjects(namespace, image, clusterId), ...operatorObjects(namespace, image)],
    `Navin Cluster Agent and operator for cluster ${clusterName} (${clusterId}).\nCreate the Secret ${AGENT_IDENTITY_SECRET} first, then: kubectl apply -f agent.yaml`,
  );
}
