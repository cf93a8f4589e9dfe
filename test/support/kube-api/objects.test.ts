// Object semantics through client-node: server-managed metadata, error Status shapes, scoping, selectors, paging.
import { AppsV1Api, CoordinationV1Api, CoreV1Api, StorageV1Api } from '@kubernetes/client-node';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeJson } from './rest-client.js';
import { labelSelector } from './selectors.js';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';
import { failure } from './test-helpers.js';

let server: KubeApiServer;
let core: CoreV1Api;
beforeAll(async () => {
  server = await startKubeApiServer();
  core = server.kubeConfig().makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: 'objects' } } });
});
afterAll(() => server.close());

const cm = (name: string, labels: Record<string, string> = {}): V1ConfigMap => ({ metadata: { name, labels }, data: { k: name } });

describe('server-managed metadata', () => {
  it('sets uid, creationTimestamp and a global, increasing resourceVersion on every write', async () => {
    const a = await core.createNamespacedConfigMap({ namespace: 'objects', body: cm('meta-a') });
    const b = await core.createNamespacedConfigMap({ namespace: 'objects', body: cm('meta-b') });
    expect(a.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.metadata?.creationTimestamp).toBeInstanceOf(Date);
    expect(Number(b.metadata?.resourceVersion)).toBeGreaterThan(Number(a.metadata?.resourceVersion));
    const updated = await core.replaceNamespacedConfigMap({ name: 'meta-a', namespace: 'objects', body: { ...a, data: { k: 'changed' } } });
    expect(Number(updated.metadata?.resourceVersion)).toBeGreaterThan(Number(b.metadata?.resourceVersion));
    expect(updated.metadata?.uid).toBe(a.metadata?.uid);
    expect(a.metadata?.generation).toBeUndefined();
  });

  it('a no-op update keeps the resourceVersion', async () => {
    const a = await core.readNamespacedConfigMap({ name: 'meta-a', namespace: 'objects' });
    const again = await core.replaceNamespacedConfigMap({ name: 'meta-a', namespace: 'objects', body: a });
    expect(again.metadata?.resourceVersion).toBe(a.metadata?.resourceVersion);
  });

  it('generates names from generateName', async () => {
    const o = await core.createNamespacedConfigMap({ namespace: 'objects', body: { metadata: { generateName: 'gen-' } } });
    expect(o.metadata?.name).toMatch(/^gen-[a-z0-9]{5}$/);
  });

  it('bumps generation on spec changes only', async () => {
    const apps = server.kubeConfig().makeApiClient(AppsV1Api);
    const d = await apps.createNamespacedDeployment({
      namespace: 'objects',
      body: {
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1' }] } },
        },
      },
    });
    expect(d.metadata?.generation).toBe(1);
    expect(d.spec?.replicas).toBe(1);
    const labelled = await apps.replaceNamespacedDeployment({
      name: 'web',
      namespace: 'objects',
      body: { ...d, metadata: { ...d.metadata, labels: { x: 'y' } } },
    });
    expect(labelled.metadata?.generation).toBe(1);
    const scaled = await apps.replaceNamespacedDeployment({
      name: 'web',
      namespace: 'objects',
      body: { ...labelled, spec: { ...labelled.spec!, replicas: 3 } },
    });
    expect(scaled.metadata?.generation).toBe(2);
    const status = await apps.replaceNamespacedDeploymentStatus({
      name: 'web',
      namespace: 'objects',
      body: { ...scaled, status: { readyReplicas: 3, replicas: 3 } },
    });
    expect(status.metadata?.generation).toBe(2);
    expect(status.status?.readyReplicas).toBe(3);
    // a main-resource write ignores status
    const ignored = await apps.replaceNamespacedDeployment({
      name: 'web',
      namespace: 'objects',
      body: { ...status, status: { readyReplicas: 0 } },
    });
    expect(ignored.status?.readyReplicas).toBe(3);
    const scale = await apps.readNamespacedDeploymentScale({ name: 'web', namespace: 'objects' });
    expect(scale.spec?.replicas).toBe(3);
    const rescaled = await apps.replaceNamespacedDeploymentScale({
      name: 'web',
      namespace: 'objects',
      body: { metadata: { name: 'web' }, spec: { replicas: 5 } },
    });
    expect(rescaled.spec?.replicas).toBe(5);
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: 'objects' })).metadata?.generation).toBe(3);
  });

  it('stores Secret stringData as base64 data', async () => {
    const s = await core.createNamespacedSecret({
      namespace: 'objects',
      body: { metadata: { name: 's' }, stringData: { password: 'hunter2' } },
    });
    expect(s.type).toBe('Opaque');
    expect(s.data).toEqual({ password: Buffer.from('hunter2').toString('base64') });
    expect(s.stringData).toBeUndefined();
  });
});

describe('errors are real Status objects', () => {
  it('404 NotFound', async () => {
    const s = await failure(server.kubeConfig().makeApiClient(CoordinationV1Api).readNamespacedLease({ name: 'x', namespace: 'objects' }));
    expect(s).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'leases.coordination.k8s.io "x" not found',
      reason: 'NotFound',
      details: { name: 'x', group: 'coordination.k8s.io', kind: 'leases' },
      code: 404,
    });
    expect((await failure(core.readNamespacedConfigMap({ name: 'nope', namespace: 'objects' }))).details).toEqual({
      name: 'nope',
      kind: 'configmaps',
    });
  });

  it('409 AlreadyExists', async () => {
    await core.createNamespacedConfigMap({ namespace: 'objects', body: cm('dup') });
    const s = await failure(core.createNamespacedConfigMap({ namespace: 'objects', body: cm('dup') }));
    expect(s).toMatchObject({
      reason: 'AlreadyExists',
      code: 409,
      message: 'configmaps "dup" already exists',
      details: { name: 'dup', kind: 'configmaps' },
    });
  });

  it('creating in a missing namespace is 404 namespace not found', async () => {
    const s = await failure(core.createNamespacedConfigMap({ namespace: 'ghost', body: cm('a') }));
    expect(s).toMatchObject({
      reason: 'NotFound',
      code: 404,
      message: 'namespaces "ghost" not found',
      details: { name: 'ghost', kind: 'namespaces' },
    });
  });

  it('422 Invalid names and 400 for a namespace mismatch', async () => {
    const s = await failure(core.createNamespacedConfigMap({ namespace: 'objects', body: cm('Bad_Name') }));
    expect(s.code).toBe(422);
    expect(s.reason).toBe('Invalid');
    expect(s.message).toMatch(
      /^ConfigMap "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
    );
    expect(s.details?.causes?.[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.name' });
    const missing = await failure(core.createNamespacedConfigMap({ namespace: 'objects', body: { data: {} } }));
    expect(missing.message).toBe('ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
    const mismatch = await failure(
      core.createNamespacedConfigMap({ namespace: 'objects', body: { metadata: { name: 'm', namespace: 'default' } } }),
    );
    expect(mismatch).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });

  it('an unknown resource is 404 with the generic message', async () => {
    const s = await kubeJson(server.kubeConfig(), 'GET', '/api/v1/namespaces/objects/widgets').catch(
      (e: { code: number; body: unknown }) => e,
    );
    expect(s).toMatchObject({ code: 404, body: { reason: 'NotFound', message: 'the server could not find the requested resource' } });
  });
});

describe('scoping and deletion', () => {
  it('serves cluster-scoped kinds without a namespace and namespaced kinds across namespaces', async () => {
    const nodes = await core.listNode();
    expect(nodes.items.map((n) => n.metadata?.name)).toEqual(['navin-control-plane', 'navin-worker', 'navin-worker2']);
    expect(nodes.items[0]?.status?.nodeInfo?.kubeletVersion).toBe('v1.30.0');
    expect(nodes.items[0]?.status?.allocatable?.cpu).toBe('4');
    const all = await core.listConfigMapForAllNamespaces();
    expect(new Set(all.items.map((c) => c.metadata?.namespace))).toContain('objects');
    const sc = await server.kubeConfig().makeApiClient(StorageV1Api).readStorageClass({ name: 'standard' });
    expect(sc.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class']).toBe('true');
    const dns = await server.kubeConfig().makeApiClient(AppsV1Api).readNamespacedDeployment({ name: 'coredns', namespace: 'kube-system' });
    expect(dns.status?.readyReplicas).toBe(2);
  });

  it('DELETE answers a Status for most kinds and the object for ServiceAccounts', async () => {
    await core.createNamespacedConfigMap({ namespace: 'objects', body: cm('gone') });
    const st = await core.deleteNamespacedConfigMap({ name: 'gone', namespace: 'objects' });
    expect(st).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'gone', kind: 'configmaps' } });
    await core.createNamespacedServiceAccount({ namespace: 'objects', body: { metadata: { name: 'robot' } } });
    const sa = await core.deleteNamespacedServiceAccount({ name: 'robot', namespace: 'objects' });
    expect(sa).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'robot' } });
  });

  it('an object with finalizers waits for them to be removed', async () => {
    await core.createNamespacedConfigMap({ namespace: 'objects', body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } } });
    await core.deleteNamespacedConfigMap({ name: 'held', namespace: 'objects' });
    const still = await core.readNamespacedConfigMap({ name: 'held', namespace: 'objects' });
    expect(still.metadata?.deletionTimestamp).toBeInstanceOf(Date);
    await core.replaceNamespacedConfigMap({
      name: 'held',
      namespace: 'objects',
      body: { ...still, metadata: { ...still.metadata, finalizers: [] } },
    });
    expect((await failure(core.readNamespacedConfigMap({ name: 'held', namespace: 'objects' }))).code).toBe(404);
  });

  it('deleting an owner deletes its dependents', async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: 'objects', body: cm('owner') });
    await core.createNamespacedSecret({
      namespace: 'objects',
      body: {
        metadata: { name: 'owned', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }] },
      },
    });
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'objects' });
    expect((await failure(core.readNamespacedSecret({ name: 'owned', namespace: 'objects' }))).code).toBe(404);
  });
});

describe('lists and selectors', () => {
  beforeAll(async () => {
    await core.createNamespace({ body: { metadata: { name: 'sel' } } });
    const specs: [string, Record<string, string>][] = [
      ['a', { tier: 'web', env: 'prod' }],
      ['b', { tier: 'db', env: 'prod' }],
      ['c', { tier: 'web', env: 'dev' }],
      ['d', { env: 'dev' }],
    ];
    for (const [name, labels] of specs) await core.createNamespacedConfigMap({ namespace: 'sel', body: cm(name, labels) });
  });
  const names = async (labelSelector?: string, fieldSelector?: string): Promise<string[]> =>
    (await core.listNamespacedConfigMap({ namespace: 'sel', labelSelector, fieldSelector })).items
      .map((i) => i.metadata?.name ?? '')
      .filter((n) => n !== 'kube-root-ca.crt');

  it('returns the list resourceVersion', async () => {
    const l = await core.listNamespacedConfigMap({ namespace: 'sel' });
    expect(Number(l.metadata?.resourceVersion)).toBeGreaterThanOrEqual(Number(l.items.at(-1)?.metadata?.resourceVersion));
  });

  it('filters by label: equality, inequality, in, notin, exists, not exists', async () => {
    expect(await names('tier=web')).toEqual(['a', 'c']);
    expect(await names('tier==web,env=prod')).toEqual(['a']);
    expect(await names('tier!=web')).toEqual(['b', 'd']);
    expect(await names('env in (prod, dev),tier in (db)')).toEqual(['b']);
    expect(await names('tier notin (web)')).toEqual(['b', 'd']);
    expect(await names('tier')).toEqual(['a', 'b', 'c']);
    expect(await names('!tier')).toEqual(['d']);
  });

  it('filters by field: metadata.name, metadata.namespace, and rejects unknown fields', async () => {
    expect(await names(undefined, 'metadata.name=c')).toEqual(['c']);
    expect(await names(undefined, 'metadata.name!=c,metadata.namespace=sel')).toEqual(['a', 'b', 'd']);
    const s = await failure(core.listNamespacedConfigMap({ namespace: 'sel', fieldSelector: 'spec.nope=1' }));
    expect(s).toMatchObject({ code: 400, reason: 'BadRequest', message: 'field label not supported: spec.nope' });
    const secrets = await core.listSecretForAllNamespaces({ fieldSelector: 'type=Opaque' });
    expect(secrets.items.every((i) => i.type === 'Opaque')).toBe(true);
  });

  it('pages with limit and continue', async () => {
    const first = await core.listNamespacedConfigMap({ namespace: 'sel', limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.metadata?._continue).toBeTruthy();
    const rest = await core.listNamespacedConfigMap({ namespace: 'sel', limit: 10, _continue: first.metadata?._continue });
    expect([...first.items, ...rest.items].map((i) => i.metadata?.name)).toEqual(['a', 'b', 'c', 'd', 'kube-root-ca.crt']);
  });

  it('parses gt/lt and rejects malformed selectors', () => {
    expect(labelSelector('n>3')({ metadata: { labels: { n: '5' } } })).toBe(true);
    expect(labelSelector('n<3')({ metadata: { labels: { n: '5' } } })).toBe(false);
    expect(() => labelSelector('a=b=c')).toThrow(/unable to parse requirement/);
  });

  it('deletes a collection by selector', async () => {
    // The real server answers the list of deleted objects (client-node types it as V1Status).
    const r = await core.deleteCollectionNamespacedConfigMap({ namespace: 'sel', labelSelector: 'env=dev' });
    expect(r.kind).toBe('ConfigMapList');
    expect(await names()).toEqual(['a', 'b']);
  });
});
