// The operator's RBAC, as the manifests route serves it, evaluated by the Kubernetes API (test server or
// KUBECONFIG's cluster) and asked with the real `kubectl auth can-i` under the operator's own token.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CoreV1Api } from '@kubernetes/client-node';
import { agentManifestsYaml } from '../../../../main/core/kubernetes/agent-manifests';
import { importRbacYaml } from '../../../../main/core/kubernetes/import-rbac';
import { HTTPROUTE_CRD } from '../../../support/kube-api/gateway-api-crd';
import { kubeTarget, type KubeTarget } from '../../../support/kube-api/target';
import { kubectl, kubectlAvailable } from '../../../support/kube-api/test-helpers';
import { describeNeeding } from '../../../support/needs';
import { tempDir } from '../../../support/temp-dir';

const NS = 'navin-op-rbac';
const IMAGE = `registry.local/navin/agent@sha256:${'b'.repeat(64)}`;

describe('the manifests route serves the operator with the agent', () => {
  test('one more ServiceAccount, Role, ClusterRole, bindings and a Deployment running navin-operator from the same image', () => {
    const docs = parseAllDocuments(agentManifestsYaml(NS, IMAGE, 'c1', 'edge')).map((d) => d.toJSON() as Record<string, any>);
    const op = docs.filter((d) => d.metadata.name === 'navin-operator' || d.metadata.name === `navin-operator-${NS}`);
    expect(op.map((d) => d.kind)).toEqual(['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'Deployment']);
    const pod = op.find((d) => d.kind === 'Deployment')!.spec.template.spec;
    expect(pod.serviceAccountName).toBe('navin-operator');
    expect(pod.containers[0]).toMatchObject({ image: IMAGE, command: ['/usr/local/bin/node', '/app/navin-operator.cjs'] });
    expect(pod.containers[0].args).toEqual([
      '--namespace',
      NS,
      '--ingress-namespace',
      'ingress-nginx',
      '--identity-dir',
      '/etc/navin-operator',
    ]);
    expect(pod.containers[0].securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
  });

  test('the operator pod sees only manager.pem and config.json of the identity Secret, never its tls.key, and its RBAC names no Secret', () => {
    const docs = parseAllDocuments(agentManifestsYaml(NS, IMAGE, 'c1', 'edge')).map((d) => d.toJSON() as Record<string, any>);
    const pod = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'navin-operator')!.spec.template.spec;
    const identity = pod.volumes.find((v: { name: string }) => v.name === 'identity').secret;
    expect(identity.secretName).toBe('navin-cluster-agent-identity');
    expect(identity.items).toEqual([
      { key: 'manager.pem', path: 'manager.pem' },
      { key: 'config.json', path: 'config.json' },
    ]);
    expect(pod.containers[0].volumeMounts).toEqual([{ name: 'identity', mountPath: '/etc/navin-operator', readOnly: true }]);
    // The files are 0440 for root: the pod's group must be the operator's to read them.
    expect(pod.securityContext.fsGroup).toBe(pod.securityContext.runAsGroup);
    const roles = docs.filter((d) => (d.kind === 'Role' || d.kind === 'ClusterRole') && d.metadata.name.startsWith('navin-operator'));
    expect(roles).toHaveLength(2);
    for (const role of roles) for (const rule of role.rules) expect(rule.resources ?? []).not.toContain('secrets');
  });
});

describeNeeding('the operator RBAC allow/deny matrix', [kubectlAvailable()], () => {
  let kube: KubeTarget;
  let dir: ReturnType<typeof tempDir>;
  let kubeconfig: string;

  beforeAll(async () => {
    kube = await kubeTarget();
    dir = tempDir('navin-operator-rbac-');
    await kube.apply(importRbacYaml(NS, 'edge'));
    await kube.apply(HTTPROUTE_CRD);
    await kube.apply(agentManifestsYaml(NS, IMAGE, 'c1', 'edge'));
    kubeconfig = join(dir.path, 'kubeconfig');
    writeFileSync(kubeconfig, kube.kubeconfigFor(await kube.createToken(NS, 'navin-operator')));
  });
  afterAll(async () => {
    await kube
      ?.kubeConfig()
      .makeApiClient(CoreV1Api)
      .deleteNamespace({ name: NS })
      .catch(() => undefined);
    await kube?.close();
    dir?.remove();
  });

  // `kind/sub` asks for a subresource, `kind name` for one object by name.
  const canI = async (verb: string, resource: string, namespace?: string): Promise<boolean> => {
    const [kindAndSub, name] = resource.split(' ');
    const [kind, sub] = kindAndSub!.split('/');
    const args = [
      'auth',
      'can-i',
      verb,
      name ? `${kind}/${name}` : kind!,
      ...(sub ? ['--subresource', sub] : []),
      ...(namespace ? ['-n', namespace] : []),
      '--kubeconfig',
      kubeconfig,
    ];
    const r = await kubectl([...args, '--cache-dir', join(dir.path, 'cache')], { HOME: dir.path });
    if (r.code !== 0 && r.code !== 1) throw new Error(`kubectl auth can-i: ${r.stderr}`);
    return r.code === 0;
  };

  test.each([
    ['watch', 'managedcomponents.platform.navin.ai', NS],
    ['patch', 'managedcomponents.platform.navin.ai', NS],
    ['update', 'managedcomponents.platform.navin.ai/status', NS],
    ['create', 'statefulsets.apps', NS],
    ['delete', 'deployments.apps', NS],
    ['patch', 'services', NS],
    ['patch', 'configmaps', NS],
    ['create', 'networkpolicies.networking.k8s.io', NS],
    ['create', 'ingresses.networking.k8s.io', NS],
    ['create', 'httproutes.gateway.networking.k8s.io', NS],
    ['list', 'ingressclasses.networking.k8s.io', undefined],
  ])('may %s %s in %s', async (verb, resource, ns) => {
    expect(await canI(verb, resource, ns)).toBe(true);
  });

  // The agent's identity Secret holds its tls.key: the operator gets its two public files from a projected mount.
  test.each([
    ['get', 'secrets navin-cluster-agent-identity', NS],
    ['get', 'secrets navin-tls-site', NS],
    ['get', 'secrets', NS],
    ['list', 'secrets', NS],
    ['watch', 'secrets', NS],
    ['get', 'secrets', 'kube-system'],
    ['list', 'secrets', 'default'],
    ['list', 'secrets', undefined],
    ['create', 'secrets', NS],
    ['update', 'secrets', NS],
    ['create', 'roles.rbac.authorization.k8s.io', NS],
    ['create', 'rolebindings.rbac.authorization.k8s.io', NS],
    ['update', 'clusterroles.rbac.authorization.k8s.io', undefined],
    ['create', 'clusterrolebindings.rbac.authorization.k8s.io', undefined],
    ['escalate', 'roles.rbac.authorization.k8s.io', NS],
    ['bind', 'clusterroles.rbac.authorization.k8s.io', undefined],
    ['update', 'managedcomponents.platform.navin.ai', NS],
    ['delete', 'managedcomponents.platform.navin.ai', NS],
    ['create', 'deployments.apps', 'kube-system'],
    ['create', 'statefulsets.apps', 'default'],
    ['create', 'pods', NS],
    ['create', 'pods/exec', NS],
    ['update', 'leases.coordination.k8s.io', NS],
    ['list', 'customresourcedefinitions.apiextensions.k8s.io', undefined],
  ])('may not %s %s in %s', async (verb, resource, ns) => {
    expect(await canI(verb, resource, ns)).toBe(false);
  });
});
