// The cluster agent's RBAC, as the manifests route serves it, evaluated by the Kubernetes API (test server or
// KUBECONFIG's cluster) and asked with the real `kubectl auth can-i` under the agent's own token: of Secrets it may
// only get and update its identity Secret, by name (where it keeps the certificate it renews), and nothing else.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { agentManifestsYaml } from '../../../../main/core/kubernetes/agent-manifests';
import { importRbacYaml } from '../../../../main/core/kubernetes/import-rbac';
import { kubeTarget, type KubeTarget } from '../../../support/kube-api/target';
import { kubectl, kubectlAvailable } from '../../../support/kube-api/test-helpers';
import { describeNeeding } from '../../../support/needs';
import { tempDir } from '../../../support/temp-dir';

const NS = 'navin-agent-rbac';
const IMAGE = `registry.local/navin/agent@sha256:${'d'.repeat(64)}`;

describeNeeding('the cluster agent RBAC allow/deny matrix', [kubectlAvailable()], () => {
  let kube: KubeTarget;
  let dir: ReturnType<typeof tempDir>;
  let kubeconfig: string;

  beforeAll(async () => {
    kube = await kubeTarget();
    dir = tempDir('navin-agent-rbac-');
    await kube.apply(importRbacYaml(NS, 'edge'));
    await kube.apply(agentManifestsYaml(NS, IMAGE, 'c1', 'edge'));
    kubeconfig = join(dir.path, 'kubeconfig');
    writeFileSync(kubeconfig, kube.kubeconfigFor(await kube.createToken(NS, 'navin-cluster-agent')));
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

  const canI = async (verb: string, resource: string, namespace?: string): Promise<boolean> => {
    const args = ['auth', 'can-i', verb, resource, ...(namespace ? ['-n', namespace] : []), '--kubeconfig', kubeconfig];
    const r = await kubectl([...args, '--cache-dir', join(dir.path, 'cache')], { HOME: dir.path });
    if (r.code !== 0 && r.code !== 1) throw new Error(`kubectl auth can-i: ${r.stderr}`);
    return r.code === 0;
  };

  test.each([
    ['get', 'secrets/navin-cluster-agent-identity', NS],
    ['update', 'secrets/navin-cluster-agent-identity', NS],
    ['update', 'leases.coordination.k8s.io/navin-cluster-agent', NS],
    ['update', 'configmaps/navin-cluster-agent-state', NS],
  ])('may %s %s in %s', async (verb, resource, ns) => {
    expect(await canI(verb, resource, ns)).toBe(true);
  });

  test.each([
    ['get', 'secrets/navin-tls-site', NS],
    ['get', 'secrets', NS],
    ['list', 'secrets', NS],
    ['watch', 'secrets', NS],
    ['create', 'secrets', NS],
    ['update', 'secrets', NS],
    ['patch', 'secrets/navin-cluster-agent-identity', NS],
    ['delete', 'secrets/navin-cluster-agent-identity', NS],
    ['get', 'secrets/navin-cluster-agent-identity', 'default'],
    ['update', 'secrets/navin-cluster-agent-identity', 'kube-system'],
    ['list', 'secrets', undefined],
    ['create', 'deployments.apps', NS],
    ['create', 'pods', NS],
    ['create', 'roles.rbac.authorization.k8s.io', NS],
  ])('may not %s %s in %s', async (verb, resource, ns) => {
    expect(await canI(verb, resource, ns)).toBe(false);
  });
});
