// handle.apply (kubectl apply -f semantics) and kubeTarget(), including its real-cluster path pointed at a test server.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeRequestError } from './rest-client.js';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';
import { kubeTarget } from './target.js';

let server: KubeApiServer;
beforeAll(async () => {
  server = await startKubeApiServer();
});
afterAll(() => server.close());

const MANIFESTS = `
# a comment before the first document
---
apiVersion: v1
kind: Namespace
metadata:
  name: navin-platform
---
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: managedcomponents.platform.navin.ai }
spec:
  group: platform.navin.ai
  scope: Namespaced
  names: { plural: managedcomponents, kind: ManagedComponent }
  versions: [{ name: v1alpha1, served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } } }]
---
apiVersion: platform.navin.ai/v1alpha1
kind: ManagedComponent
metadata: { name: opa, namespace: navin-platform }
spec: { component: opa }
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  labels: { keep: "yes", drop: "soon" }
data: { a: "1" }
`;

describe('apply', () => {
  it('creates every document in order, namespaced ones in their namespace or default', async () => {
    const r = await server.apply(MANIFESTS);
    expect(r.map((x) => [x.kind, x.namespace, x.name, x.action])).toEqual([
      ['Namespace', undefined, 'navin-platform', 'created'],
      ['CustomResourceDefinition', undefined, 'managedcomponents.platform.navin.ai', 'created'],
      ['ManagedComponent', 'navin-platform', 'opa', 'created'],
      ['ConfigMap', 'default', 'settings', 'created'],
    ]);
    const mc = (await server.kubeConfig().makeApiClient(CustomObjectsApi).getNamespacedCustomObject({
      group: 'platform.navin.ai',
      version: 'v1alpha1',
      namespace: 'navin-platform',
      plural: 'managedcomponents',
      name: 'opa',
    })) as { spec: unknown };
    expect(mc.spec).toEqual({ component: 'opa' });
  });

  it('re-applying the same YAML changes nothing', async () => {
    const rv = server.store.resourceVersion();
    const r = await server.apply(MANIFESTS);
    expect(r.map((x) => x.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(server.store.resourceVersion()).toBe(rv);
  });

  it('merges three ways: removed fields go, fields others set stay', async () => {
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    await core.patchNamespacedConfigMap({
      name: 'settings',
      namespace: 'default',
      body: [{ op: 'add', path: '/data/other', value: 'theirs' }],
    });
    const r = await server.apply(MANIFESTS.replace('drop: "soon"', 'new: "label"').replace('a: "1"', 'a: "2"'));
    expect(r.at(-1)?.action).toBe('configured');
    const cm = await core.readNamespacedConfigMap({ name: 'settings', namespace: 'default' });
    expect(cm.metadata?.labels).toEqual({ keep: 'yes', new: 'label' });
    expect(cm.data).toEqual({ a: '2', other: 'theirs' });
    expect(cm.metadata?.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toContain('"new":"label"');
  });

  it('applies with the given token, so RBAC applies', async () => {
    await server.apply('apiVersion: v1\nkind: ServiceAccount\nmetadata: { name: nobody, namespace: navin-platform }\n');
    const err = await server
      .apply(
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x, namespace: navin-platform }\n',
        server.createToken('navin-platform', 'nobody'),
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeRequestError);
    expect(err).toMatchObject({ code: 403 });
  });
});

describe('kubeTarget', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kube-api-target-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('starts a test server when KUBECONFIG is unset', async () => {
    const saved = process.env.KUBECONFIG;
    delete process.env.KUBECONFIG;
    const t = await kubeTarget();
    try {
      expect(t.kind).toBe('test-server');
      expect(t.server).toBeDefined();
      const token = await t.createToken('default', 'default');
      await expect(t.kubeConfig(token).makeApiClient(CoreV1Api).listNamespacedConfigMap({ namespace: 'default' })).rejects.toMatchObject({
        code: 403,
      });
    } finally {
      await t.close();
      if (saved !== undefined) process.env.KUBECONFIG = saved;
    }
  });

  it('uses the cluster of KUBECONFIG when set (here: a test server standing in for kind)', async () => {
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = await server.writeKubeconfig(dir, 'cluster.kubeconfig', server.adminToken);
    try {
      const t = await kubeTarget();
      expect(t.kind).toBe('cluster');
      expect(t.server).toBeUndefined();
      expect(t.url).toBe(server.url);
      await t.apply('apiVersion: v1\nkind: ServiceAccount\nmetadata: { name: via-target, namespace: navin-platform }\n');
      const token = await t.createToken('navin-platform', 'via-target');
      const kc = t.kubeConfig(token);
      await expect(kc.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'navin-platform' })).rejects.toMatchObject({ code: 403 });
      expect(t.kubeconfigFor(token)).toContain('certificate-authority-data');
      await t.close();
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  });
});
