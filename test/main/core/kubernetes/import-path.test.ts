// The import path against the Kubernetes API test server (or a real cluster when KUBECONFIG is set): the very
// YAML the manager generates is applied, then each identity's own token runs the spec's allow/deny matrix.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  AppsV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  NetworkingV1Api,
  RbacAuthorizationV1Api,
  StorageV1Api,
  ApiextensionsV1Api,
  VersionApi,
  type KubeConfig,
} from '@kubernetes/client-node';
import { importRbacYaml } from '../../../../main/core/kubernetes/import-rbac';
import { agentManifestsYaml } from '../../../../main/core/kubernetes/agent-manifests';
import { kubeTarget, type KubeTarget } from '../../../support/kube-api/target';

const NS = 'navin-platform';
const IMAGE = `registry.local/navin/agent@sha256:${'b'.repeat(64)}`;
const mc = (name: string) => ({
  apiVersion: 'platform.navin.ai/v1alpha1',
  kind: 'ManagedComponent',
  metadata: { name },
  spec: { component: 'opa', version: '1.0.0' },
});

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'number') return code;
    throw error;
  }
}

describe('import and agent RBAC against the Kubernetes API', () => {
  let target: KubeTarget;
  let importKc: KubeConfig;
  let agentKc: KubeConfig;

  beforeAll(async () => {
    target = await kubeTarget();
    await target.apply(importRbacYaml(NS, 'edge'));
    await target.apply(agentManifestsYaml(NS, IMAGE, 'cluster-1', 'edge'));
    // Objects the denials are tried against, created by the admin.
    await target.apply(`apiVersion: v1
kind: Secret
metadata: {name: s1, namespace: ${NS}}
stringData: {k: v}
---
apiVersion: v1
kind: Secret
metadata: {name: s2, namespace: kube-system}
stringData: {k: v}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: other, namespace: kube-system}
spec:
  replicas: 1
  selector: {matchLabels: {app: other}}
  template:
    metadata: {labels: {app: other}}
    spec: {containers: [{name: c, image: "registry.local/x@sha256:${'c'.repeat(64)}"}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: other-config, namespace: ${NS}}
data: {k: v}
---
apiVersion: v1
kind: Namespace
metadata: {name: elsewhere}
`);
    importKc = target.kubeConfig(await target.createToken(NS, 'navin-import'));
    agentKc = target.kubeConfig(await target.createToken(NS, 'navin-cluster-agent'));
  });
  afterAll(() => target?.close());

  describe('the import identity', () => {
    test('reads nodes, namespaces, CRDs, storage and ingress classes, and the CoreDNS Deployment', async () => {
      expect(await status(importKc.makeApiClient(CoreV1Api).listNode())).toBe(200);
      expect(await status(importKc.makeApiClient(CoreV1Api).listNamespace())).toBe(200);
      expect(await status(importKc.makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition())).toBe(200);
      expect(await status(importKc.makeApiClient(StorageV1Api).listStorageClass())).toBe(200);
      expect(await status(importKc.makeApiClient(NetworkingV1Api).listIngressClass())).toBe(200);
      expect(await status(importKc.makeApiClient(AppsV1Api).readNamespacedDeployment({ name: 'coredns', namespace: 'kube-system' }))).toBe(
        200,
      );
    });

    test('writes platform.navin.ai resources in the managed namespace', async () => {
      const api = importKc.makeApiClient(CustomObjectsApi);
      const base = { group: 'platform.navin.ai', version: 'v1alpha1', namespace: NS, plural: 'managedcomponents' };
      expect(await status(api.createNamespacedCustomObject({ ...base, body: mc('by-import') }))).toBe(200);
      expect(await status(api.listNamespacedCustomObject(base))).toBe(200);
      expect(await status(api.deleteNamespacedCustomObject({ ...base, name: 'by-import' }))).toBe(200);
    });

    test.each([
      ['Secrets in the managed namespace', (kc: KubeConfig) => kc.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: NS })],
      [
        'a Secret in kube-system',
        (kc: KubeConfig) => kc.makeApiClient(CoreV1Api).readNamespacedSecret({ name: 's2', namespace: 'kube-system' }),
      ],
      [
        'a Deployment other than coredns',
        (kc: KubeConfig) => kc.makeApiClient(AppsV1Api).readNamespacedDeployment({ name: 'other', namespace: 'kube-system' }),
      ],
      ['listing Deployments', (kc: KubeConfig) => kc.makeApiClient(AppsV1Api).listNamespacedDeployment({ namespace: 'kube-system' })],
      [
        'creating a Role',
        (kc: KubeConfig) =>
          kc.makeApiClient(RbacAuthorizationV1Api).createNamespacedRole({ namespace: NS, body: { metadata: { name: 'r' }, rules: [] } }),
      ],
      [
        'creating a RoleBinding',
        (kc: KubeConfig) =>
          kc.makeApiClient(RbacAuthorizationV1Api).createNamespacedRoleBinding({
            namespace: NS,
            body: { metadata: { name: 'rb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [] },
          }),
      ],
      [
        'platform.navin.ai in another namespace',
        (kc: KubeConfig) =>
          kc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
            group: 'platform.navin.ai',
            version: 'v1alpha1',
            namespace: 'elsewhere',
            plural: 'managedcomponents',
            body: mc('x'),
          }),
      ],
      ['a ConfigMap', (kc: KubeConfig) => kc.makeApiClient(CoreV1Api).readNamespacedConfigMap({ name: 'other-config', namespace: NS })],
      ['pods', (kc: KubeConfig) => kc.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: NS })],
    ])('is refused %s (403)', async (_what, call) => {
      expect(await status(call(importKc))).toBe(403);
    });
  });

  describe('the agent identity', () => {
    test('reads the cluster scope and /version', async () => {
      expect(await status(agentKc.makeApiClient(CoreV1Api).listNode())).toBe(200);
      expect(await status(agentKc.makeApiClient(StorageV1Api).listStorageClass())).toBe(200);
      expect(await status(agentKc.makeApiClient(NetworkingV1Api).listIngressClass())).toBe(200);
      expect(await status(agentKc.makeApiClient(VersionApi).getCode())).toBe(200);
    });

    test('creates, reads and updates its Lease and its state ConfigMap, and writes events and ManagedComponents', async () => {
      const leases = agentKc.makeApiClient(CoordinationV1Api);
      await leases.createNamespacedLease({
        namespace: NS,
        body: { metadata: { name: 'navin-cluster-agent' }, spec: { holderIdentity: 'pod-a', leaseDurationSeconds: 15 } },
      });
      const lease = await leases.readNamespacedLease({ name: 'navin-cluster-agent', namespace: NS });
      lease.spec!.holderIdentity = 'pod-b';
      expect(await status(leases.replaceNamespacedLease({ name: 'navin-cluster-agent', namespace: NS, body: lease }))).toBe(200);

      const core = agentKc.makeApiClient(CoreV1Api);
      await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'navin-cluster-agent-state' }, data: {} } });
      const cm = await core.readNamespacedConfigMap({ name: 'navin-cluster-agent-state', namespace: NS });
      cm.data = { nonces: '{}' };
      expect(await status(core.replaceNamespacedConfigMap({ name: 'navin-cluster-agent-state', namespace: NS, body: cm }))).toBe(200);
      expect(
        await status(
          core.createNamespacedEvent({
            namespace: NS,
            body: {
              metadata: { name: 'e1' },
              involvedObject: { kind: 'Lease', name: 'navin-cluster-agent', namespace: NS },
              reason: 'LeaderElected',
              message: 'pod-b',
              type: 'Normal',
            },
          }),
        ),
      ).toBe(200);

      const base = { group: 'platform.navin.ai', version: 'v1alpha1', namespace: NS, plural: 'managedcomponents' };
      expect(await status(agentKc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({ ...base, body: mc('by-agent') }))).toBe(
        200,
      );
    });

    test.each([
      ['Secrets in the managed namespace', (kc: KubeConfig) => kc.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: NS })],
      [
        'a Secret in kube-system',
        (kc: KubeConfig) => kc.makeApiClient(CoreV1Api).readNamespacedSecret({ name: 's2', namespace: 'kube-system' }),
      ],
      [
        'a ConfigMap other than its state',
        (kc: KubeConfig) => kc.makeApiClient(CoreV1Api).readNamespacedConfigMap({ name: 'other-config', namespace: NS }),
      ],
      [
        'the CoreDNS Deployment',
        (kc: KubeConfig) => kc.makeApiClient(AppsV1Api).readNamespacedDeployment({ name: 'coredns', namespace: 'kube-system' }),
      ],
      [
        'creating a Deployment',
        (kc: KubeConfig) =>
          kc.makeApiClient(AppsV1Api).createNamespacedDeployment({
            namespace: NS,
            body: { metadata: { name: 'd' }, spec: { selector: {}, template: {} } } as never,
          }),
      ],
      [
        'creating a Role',
        (kc: KubeConfig) =>
          kc.makeApiClient(RbacAuthorizationV1Api).createNamespacedRole({ namespace: NS, body: { metadata: { name: 'r2' }, rules: [] } }),
      ],
      [
        'platform.navin.ai in another namespace',
        (kc: KubeConfig) =>
          kc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
            group: 'platform.navin.ai',
            version: 'v1alpha1',
            namespace: 'elsewhere',
            plural: 'managedcomponents',
            body: mc('y'),
          }),
      ],
      ['pods', (kc: KubeConfig) => kc.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: NS })],
    ])('is refused %s (403)', async (_what, call) => {
      expect(await status(call(agentKc))).toBe(403);
    });
  });
});
