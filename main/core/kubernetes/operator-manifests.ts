// The operator's manifests, served with the agent's: its own ServiceAccount, least-privilege RBAC (the objects a
// ManagedComponent becomes, in the managed namespace only; no Secret, no RBAC object anywhere) and a hardened
// Deployment running the agent image's second entrypoint. It never talks to the manager.
//
// No Secret right at all: RBAC narrows get by name but not list or watch, and the certificate names
// (navin-tls-<site>) come and go with the signed config, so any Secret rule would have reached the agent's
// identity Secret and its tls.key. The two public files the operator needs from that Secret (manager.pem, the
// signed config.json) are mounted by the kubelet, projected key by key; a cert-manager certificate is seen
// through its Certificate's Ready condition, which holds no key.
import { AGENT_IDENTITY_SECRET, API_GROUP, DEFAULT_INGRESS_NAMESPACE, OPERATOR_NAME } from './names';
import { checkImage } from './image-reference';
import { serviceAccountRbac } from './rbac-objects';
import { hardenedContainer, hardenedPod } from './container-hardening';

const WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const READ = ['get', 'list', 'watch'];
/** The CRDs the operator looks for (cert-manager, the Gateway API): read by name only. */
const WATCHED_CRDS = ['certificates.cert-manager.io', 'httproutes.gateway.networking.k8s.io'];
export const OPERATOR_IDENTITY_MOUNT = '/etc/navin-operator';
/** The only keys of the identity Secret the operator's pod sees. */
export const OPERATOR_IDENTITY_KEYS = ['manager.pem', 'config.json'] as const;

export function operatorObjects(namespace: string, image: string, ingressNamespace = DEFAULT_INGRESS_NAMESPACE): object[] {
  checkImage(image);
  const labels = { 'app.kubernetes.io/name': OPERATOR_NAME, 'app.kubernetes.io/part-of': 'navin-platform' };
  return [
    ...serviceAccountRbac(OPERATOR_NAME, namespace, labels, {
      cluster: [
        { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: WATCHED_CRDS, verbs: ['get'] },
        { apiGroups: ['networking.k8s.io'], resources: ['ingressclasses'], verbs: ['get', 'list'] },
      ],
      namespace: [
        // The resources are the agent's to write: the operator reads them, writes their status, and patches only
        // its finalizer (RBAC cannot narrow patch to one field; a patched spec would fail its signature anyway).
        { apiGroups: [API_GROUP], resources: ['managedcomponents'], verbs: [...READ, 'patch'] },
        { apiGroups: [API_GROUP], resources: ['managedcomponents/status'], verbs: ['get', 'update', 'patch'] },
        { apiGroups: ['cert-manager.io'], resources: ['certificates'], verbs: ['get'] },
        { apiGroups: [''], resources: ['configmaps', 'services'], verbs: WRITE },
        { apiGroups: ['apps'], resources: ['deployments', 'statefulsets'], verbs: WRITE },
        { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'networkpolicies'], verbs: WRITE },
        { apiGroups: ['gateway.networking.k8s.io'], resources: ['httproutes'], verbs: WRITE },
        { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
      ],
    }),
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: OPERATOR_NAME, namespace, labels: { ...labels, 'app.kubernetes.io/component': 'operator' } },
      spec: {
        // One replica: every write is a server-side apply, so a second one during a rollout does no harm.
        replicas: 1,
        selector: { matchLabels: { 'app.kubernetes.io/name': OPERATOR_NAME } },
        template: {
          metadata: { labels },
          spec: {
            ...hardenedPod(OPERATOR_NAME),
            containers: [
              {
                name: 'operator',
                image,
                imagePullPolicy: 'IfNotPresent',
                command: ['/usr/local/bin/node', '/app/navin-operator.cjs'],
                args: ['--namespace', namespace, '--ingress-namespace', ingressNamespace, '--identity-dir', OPERATOR_IDENTITY_MOUNT],
                ...hardenedContainer(),
                volumeMounts: [{ name: 'identity', mountPath: OPERATOR_IDENTITY_MOUNT, readOnly: true }],
              },
            ],
            // Optional: without the Secret the operator still starts and says so (PREFLIGHT manager_key).
            volumes: [
              {
                name: 'identity',
                secret: {
                  secretName: AGENT_IDENTITY_SECRET,
                  items: OPERATOR_IDENTITY_KEYS.map((key) => ({ key, path: key })),
                  defaultMode: 0o440,
                  optional: true,
                },
              },
            ],
          },
        },
      },
    },
  ];
}
