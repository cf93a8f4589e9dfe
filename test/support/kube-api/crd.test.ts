// CustomResourceDefinitions at run time: a ManagedComponent-like CRD served at once, its status subresource, removal.
import { ApiextensionsV1Api, ApisApi, CoreV1Api, CustomObjectsApi, PatchStrategy, Watch, setHeaderOptions } from '@kubernetes/client-node';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeJson, kubeRequest } from './rest-client.js';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';
import { eventually, failure } from './test-helpers.js';

const CRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: managedcomponents.platform.navin.ai
spec:
  group: platform.navin.ai
  scope: Namespaced
  names: { plural: managedcomponents, singular: managedcomponent, kind: ManagedComponent, shortNames: [mc] }
  versions:
    - name: v1alpha1
      served: true
      storage: true
      subresources: { status: {} }
      additionalPrinterColumns:
        - { name: Phase, type: string, jsonPath: .status.phase }
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              required: [component]
              properties:
                component: { type: string }
                version: { type: string }
                replicas: { type: integer }
                values: { type: object, x-kubernetes-preserve-unknown-fields: true }
            status:
              type: object
              properties:
                phase: { type: string, enum: [Pending, Ready, Failed] }
                observedGeneration: { type: integer }
`;

const G = 'platform.navin.ai';
const V = 'v1alpha1';
const P = 'managedcomponents';
const NS = 'navin-platform';

let server: KubeApiServer;
let custom: CustomObjectsApi;
beforeAll(async () => {
  server = await startKubeApiServer();
  await server
    .kubeConfig()
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name: NS } } });
  await server.apply(CRD);
  custom = server.kubeConfig().makeApiClient(CustomObjectsApi);
});
afterAll(() => server.close());

interface Mc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; resourceVersion: string; generation: number; uid: string };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}

const mc = (name: string, spec: Record<string, unknown>): object => ({
  apiVersion: `${G}/${V}`,
  kind: 'ManagedComponent',
  metadata: { name },
  spec,
});

describe('a CRD created at run time', () => {
  it('is established and discoverable at once', async () => {
    const crd = await server
      .kubeConfig()
      .makeApiClient(ApiextensionsV1Api)
      .readCustomResourceDefinition({ name: `${P}.${G}` });
    expect(crd.status?.conditions?.find((c) => c.type === 'Established')?.status).toBe('True');
    expect(crd.status?.acceptedNames?.kind).toBe('ManagedComponent');
    const groups = await server.kubeConfig().makeApiClient(ApisApi).getAPIVersions();
    expect(groups.groups.find((g) => g.name === G)?.preferredVersion?.groupVersion).toBe(`${G}/${V}`);
    const list = await kubeJson<{ resources: { name: string; kind: string; namespaced: boolean; shortNames?: string[] }[] }>(
      server.kubeConfig(),
      'GET',
      `/apis/${G}/${V}`,
    );
    expect(list.resources).toEqual([
      expect.objectContaining({ name: P, kind: 'ManagedComponent', namespaced: true, shortNames: ['mc'] }),
      expect.objectContaining({ name: `${P}/status`, kind: 'ManagedComponent' }),
    ]);
  });

  it('serves custom resources through CustomObjectsApi with generation and pruning', async () => {
    const created = (await custom.createNamespacedCustomObject({
      group: G,
      version: V,
      namespace: NS,
      plural: P,
      body: mc('opa', { component: 'opa', version: '0.60.0', unknownField: 1, values: { any: { deep: true } } }),
    })) as Mc;
    expect(created.metadata.generation).toBe(1);
    expect(created.spec).toEqual({ component: 'opa', version: '0.60.0', values: { any: { deep: true } } });
    const got = (await custom.getNamespacedCustomObject({ group: G, version: V, namespace: NS, plural: P, name: 'opa' })) as Mc;
    expect(got.kind).toBe('ManagedComponent');
    const list = (await custom.listNamespacedCustomObject({ group: G, version: V, namespace: NS, plural: P })) as {
      kind: string;
      items: Mc[];
    };
    expect(list.kind).toBe('ManagedComponentList');
    expect(list.items.map((i) => [i.kind, i.metadata.name])).toEqual([['ManagedComponent', 'opa']]);
  });

  it('validates against the schema (422 Invalid)', async () => {
    const s = await failure(
      custom.createNamespacedCustomObject({ group: G, version: V, namespace: NS, plural: P, body: mc('bad', { replicas: 'three' }) }),
    );
    expect(s.code).toBe(422);
    expect(s.message).toMatch(/^ManagedComponent\.platform\.navin\.ai "bad" is invalid: \[/);
    expect(s.details?.causes?.map((c) => c.field).sort()).toEqual(['spec.component', 'spec.replicas']);
  });

  it('status subresource: status writes leave spec and generation alone, main writes ignore status', async () => {
    const cur = (await custom.getNamespacedCustomObject({ group: G, version: V, namespace: NS, plural: P, name: 'opa' })) as Mc;
    const withStatus = (await custom.replaceNamespacedCustomObjectStatus({
      group: G,
      version: V,
      namespace: NS,
      plural: P,
      name: 'opa',
      body: { ...cur, spec: { component: 'changed-by-status-write' }, status: { phase: 'Pending', observedGeneration: 1 } },
    })) as Mc;
    expect(withStatus.spec.component).toBe('opa');
    expect(withStatus.status).toEqual({ phase: 'Pending', observedGeneration: 1 });
    expect(withStatus.metadata.generation).toBe(1);
    const patched = (await custom.patchNamespacedCustomObjectStatus(
      { group: G, version: V, namespace: NS, plural: P, name: 'opa', body: { spec: { version: 'x' }, status: { phase: 'Ready' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as Mc;
    expect(patched.status?.phase).toBe('Ready');
    expect(patched.spec.version).toBe('0.60.0');
    const main = (await custom.replaceNamespacedCustomObject({
      group: G,
      version: V,
      namespace: NS,
      plural: P,
      name: 'opa',
      body: { ...patched, spec: { ...patched.spec, version: '0.61.0' }, status: { phase: 'Failed' } },
    })) as Mc;
    expect(main.spec.version).toBe('0.61.0');
    expect(main.status?.phase).toBe('Ready');
    expect(main.metadata.generation).toBe(2);
    const badStatus = await failure(
      custom.patchNamespacedCustomObjectStatus(
        { group: G, version: V, namespace: NS, plural: P, name: 'opa', body: { status: { phase: 'Bogus' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    );
    expect(badStatus.message).toMatch(/status\.phase: Unsupported value: "Bogus"/);
  });

  it('custom resources need a resourceVersion to update and refuse strategic merge patches', async () => {
    const s = await failure(
      custom.replaceNamespacedCustomObject({
        group: G,
        version: V,
        namespace: NS,
        plural: P,
        name: 'opa',
        body: mc('opa', { component: 'opa' }),
      }),
    );
    expect(s).toMatchObject({
      code: 422,
      message:
        'ManagedComponent.platform.navin.ai "opa" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    });
    const smp = await failure(
      custom.patchNamespacedCustomObject(
        { group: G, version: V, namespace: NS, plural: P, name: 'opa', body: { spec: { version: 'y' } } },
        setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
      ),
    );
    expect(smp).toMatchObject({ code: 415, reason: 'UnsupportedMediaType' });
    const merged = (await custom.patchNamespacedCustomObject(
      { group: G, version: V, namespace: NS, plural: P, name: 'opa', body: { spec: { version: 'y' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as Mc;
    expect(merged.spec.version).toBe('y');
  });

  it('can be watched, and kubectl-style Table output uses its printer columns', async () => {
    const events: string[] = [];
    const ctl = await new Watch(server.kubeConfig()).watch(
      `/apis/${G}/${V}/namespaces/${NS}/${P}`,
      { resourceVersion: server.store.resourceVersion() },
      (t, o: Mc) => events.push(`${t} ${o.metadata.name}`),
      () => undefined,
    );
    await custom.createNamespacedCustomObject({ group: G, version: V, namespace: NS, plural: P, body: mc('nats', { component: 'nats' }) });
    await custom.deleteNamespacedCustomObject({ group: G, version: V, namespace: NS, plural: P, name: 'nats' });
    await eventually(() => events.length >= 2);
    ctl.abort();
    expect(events).toEqual(['ADDED nats', 'DELETED nats']);
    const accept = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' };
    const table = JSON.parse(
      (await kubeRequest(server.kubeConfig(), 'GET', `/apis/${G}/${V}/namespaces/${NS}/${P}`, undefined, undefined, accept)).text,
    );
    expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(table.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Phase']);
    expect(table.rows).toEqual([expect.objectContaining({ cells: ['opa', 'Ready'] })]);
  });

  it('deleting the CRD removes its resources and their API', async () => {
    const ext = server.kubeConfig().makeApiClient(ApiextensionsV1Api);
    const removed = (await ext.deleteCustomResourceDefinition({ name: `${P}.${G}` })) as unknown as V1CustomResourceDefinition;
    expect(removed.kind).toBe('CustomResourceDefinition');
    expect((await failure(custom.listNamespacedCustomObject({ group: G, version: V, namespace: NS, plural: P }))).code).toBe(404);
    expect((await kubeRequest(server.kubeConfig(), 'GET', `/apis/${G}/${V}`)).status).toBe(404);
    await server.apply(CRD);
    expect(
      ((await custom.listNamespacedCustomObject({ group: G, version: V, namespace: NS, plural: P })) as { items: unknown[] }).items,
    ).toEqual([]);
  });

  it('rejects a CRD whose name is not plural.group', async () => {
    const ext = server.kubeConfig().makeApiClient(ApiextensionsV1Api);
    const s = await failure(
      ext.createCustomResourceDefinition({
        body: {
          metadata: { name: 'wrong' },
          spec: {
            group: 'x.io',
            scope: 'Namespaced',
            names: { plural: 'things', kind: 'Thing' },
            versions: [{ name: 'v1', served: true, storage: true }],
          },
        },
      }),
    );
    expect(s).toMatchObject({ code: 422, reason: 'Invalid' });
  });
});
