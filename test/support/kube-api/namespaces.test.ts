// Namespace lifecycle: default content, deletion cascading to everything inside, Terminating, protected namespaces.
import { CoordinationV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import type { V1Namespace } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';
import { eventually, failure } from './test-helpers.js';

let server: KubeApiServer;
let core: CoreV1Api;
beforeAll(async () => {
  server = await startKubeApiServer();
  core = server.kubeConfig().makeApiClient(CoreV1Api);
});
afterAll(() => server.close());

describe('namespaces', () => {
  it('come with the metadata.name label, a default ServiceAccount and the root CA ConfigMap', async () => {
    const ns = await core.createNamespace({ body: { metadata: { name: 'fresh' } } });
    expect(ns.metadata?.labels).toEqual({ 'kubernetes.io/metadata.name': 'fresh' });
    expect(ns.status?.phase).toBe('Active');
    expect((await core.readNamespacedServiceAccount({ name: 'default', namespace: 'fresh' })).metadata?.name).toBe('default');
    expect((await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'fresh' })).data?.['ca.crt']).toBe(server.caPem);
  });

  it('deleting one deletes everything inside it, and nothing outside', async () => {
    await core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'c' } } });
    await core.createNamespacedSecret({ namespace: 'doomed', body: { metadata: { name: 's' } } });
    await server
      .kubeConfig()
      .makeApiClient(CoordinationV1Api)
      .createNamespacedLease({ namespace: 'doomed', body: { metadata: { name: 'l' } } });
    await server.apply(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  scope: Namespaced
  names: { plural: widgets, kind: Widget }
  versions: [{ name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } } }]
---
apiVersion: example.com/v1
kind: Widget
metadata: { name: w, namespace: doomed }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: survivor, namespace: default }
`);
    const deleted = (await core.deleteNamespace({ name: 'doomed' })) as unknown as V1Namespace;
    expect(deleted.kind).toBe('Namespace');
    expect(server.requests.at(-1)?.code).toBe(200);
    expect((await failure(core.readNamespace({ name: 'doomed' }))).code).toBe(404);
    expect((await failure(core.readNamespacedConfigMap({ name: 'c', namespace: 'doomed' }))).code).toBe(404);
    expect(server.store.list('v1', 'Secret', 'doomed')).toEqual([]);
    expect(server.store.list('coordination.k8s.io/v1', 'Lease', 'doomed')).toEqual([]);
    const widgets = (await server
      .kubeConfig()
      .makeApiClient(CustomObjectsApi)
      .listClusterCustomObject({ group: 'example.com', version: 'v1', plural: 'widgets' })) as { items: unknown[] };
    expect(widgets.items).toEqual([]);
    expect((await core.readNamespacedConfigMap({ name: 'survivor', namespace: 'default' })).metadata?.name).toBe('survivor');
  });

  it('protects default, kube-system and kube-public', async () => {
    const s = await failure(core.deleteNamespace({ name: 'kube-system' }));
    expect(s).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'namespaces "kube-system" is forbidden: this namespace may not be deleted',
    });
  });
});

describe('a Terminating namespace', () => {
  it('refuses new content until it is gone', async () => {
    const slow = await startKubeApiServer({ namespaceFinalizeDelayMs: 300, seed: (d) => d.filter((o) => o.kind === 'Namespace') });
    try {
      const api = slow.kubeConfig().makeApiClient(CoreV1Api);
      await api.createNamespace({ body: { metadata: { name: 'going' } } });
      await api.deleteNamespace({ name: 'going' });
      expect((await api.readNamespace({ name: 'going' })).status?.phase).toBe('Terminating');
      const s = await failure(api.createNamespacedConfigMap({ namespace: 'going', body: { metadata: { name: 'late' } } }));
      expect(s).toMatchObject({
        code: 403,
        message: 'configmaps "late" is forbidden: unable to create new content in namespace going because it is being terminated',
      });
      await eventually(() => !slow.store.get('v1', 'Namespace', 'going'));
    } finally {
      await slow.close();
    }
  });
});
