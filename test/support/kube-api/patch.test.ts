// PATCH: what client-node 1.4 sends by default (JSON patch), merge and strategic merge patches via setHeaderOptions.
import { AppsV1Api, CoreV1Api, KubernetesObjectApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonPatch, mergePatch, strategicMerge } from './patch.js';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';
import { failure } from './test-helpers.js';

let server: KubeApiServer;
let core: CoreV1Api;
beforeAll(async () => {
  server = await startKubeApiServer();
  core = server.kubeConfig().makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: 'p' } } });
  await core.createNamespacedConfigMap({
    namespace: 'p',
    body: { metadata: { name: 'c', labels: { a: '1', b: '2' } }, data: { x: '1', y: '2' } },
  });
});
afterAll(() => server.close());

const lastPatch = (): string | undefined => server.requests.filter((r) => r.method === 'PATCH').at(-1)?.contentType;

describe('client-node patch calls', () => {
  it('send application/json-patch+json by default', async () => {
    const r = await core.patchNamespacedConfigMap({
      name: 'c',
      namespace: 'p',
      body: [
        { op: 'replace', path: '/data/x', value: 'one' },
        { op: 'add', path: '/data/z', value: '3' },
      ],
    });
    expect(lastPatch()).toBe('application/json-patch+json');
    expect(r.data).toEqual({ x: 'one', y: '2', z: '3' });
  });

  it('send a merge patch with setHeaderOptions(Content-Type, PatchStrategy.MergePatch)', async () => {
    const r = await core.patchNamespacedConfigMap(
      { name: 'c', namespace: 'p', body: { metadata: { labels: { b: null, c: '3' } }, data: { y: null } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(lastPatch()).toBe('application/merge-patch+json');
    expect(r.metadata?.labels).toEqual({ a: '1', c: '3' });
    expect(r.data).toEqual({ x: 'one', z: '3' });
  });

  it('a patch carrying a stale resourceVersion is a 409 Conflict', async () => {
    const s = await failure(
      core.patchNamespacedConfigMap(
        { name: 'c', namespace: 'p', body: { metadata: { resourceVersion: '1' }, data: { x: 'late' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    );
    expect(s).toMatchObject({ code: 409, reason: 'Conflict' });
  });

  it('a failed JSON patch test operation is 422 and changes nothing', async () => {
    const s = await failure(
      core.patchNamespacedConfigMap({
        name: 'c',
        namespace: 'p',
        body: [
          { op: 'test', path: '/data/x', value: 'nope' },
          { op: 'remove', path: '/data/x' },
        ],
      }),
    );
    expect(s).toMatchObject({ code: 422, message: 'testing value /data/x failed: test failed' });
    expect((await core.readNamespacedConfigMap({ name: 'c', namespace: 'p' })).data?.x).toBe('one');
  });

  it('strategic merge patch merges containers and env by name, replaces other lists', async () => {
    const apps = server.kubeConfig().makeApiClient(AppsV1Api);
    await apps.createNamespacedDeployment({
      namespace: 'p',
      body: {
        metadata: { name: 'd' },
        spec: {
          selector: { matchLabels: { app: 'd' } },
          template: {
            metadata: { labels: { app: 'd' } },
            spec: {
              containers: [
                {
                  name: 'app',
                  image: 'app:1',
                  env: [
                    { name: 'A', value: '1' },
                    { name: 'B', value: '2' },
                  ],
                  args: ['--x'],
                },
                { name: 'sidecar', image: 'side:1' },
              ],
            },
          },
        },
      },
    });
    const r = await apps.patchNamespacedDeployment(
      {
        name: 'd',
        namespace: 'p',
        body: {
          spec: {
            template: {
              spec: {
                containers: [
                  {
                    name: 'app',
                    image: 'app:2',
                    env: [
                      { name: 'B', value: 'two' },
                      { name: 'C', value: '3' },
                    ],
                    args: ['--y'],
                  },
                ],
              },
            },
          },
        },
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    expect(lastPatch()).toBe('application/strategic-merge-patch+json');
    const containers = r.spec?.template.spec?.containers ?? [];
    expect(containers.map((c) => `${c.name}=${c.image}`)).toEqual(['app=app:2', 'sidecar=side:1']);
    expect(containers[0]?.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'two' },
      { name: 'C', value: '3' },
    ]);
    expect(containers[0]?.args).toEqual(['--y']);
    expect(r.metadata?.generation).toBe(2);
  });

  it('KubernetesObjectApi.patch defaults to strategic merge', async () => {
    const objects = KubernetesObjectApi.makeApiClient(server.kubeConfig());
    await objects.patch({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'p' }, data: { w: '4' } });
    expect(lastPatch()).toBe('application/strategic-merge-patch+json');
    expect((await core.readNamespacedConfigMap({ name: 'c', namespace: 'p' })).data?.w).toBe('4');
  });

  it('an unknown patch type is 415', async () => {
    const s = await failure(
      core.patchNamespacedConfigMap({ name: 'c', namespace: 'p', body: {} }, setHeaderOptions('Content-Type', 'application/x-nope')),
    );
    expect(s).toMatchObject({ code: 415, reason: 'UnsupportedMediaType' });
  });
});

describe('patch algorithms', () => {
  it('merge patch follows RFC 7386', () => {
    expect(mergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { b: null, d: 3 }, l: [3] })).toEqual({ a: { c: 2, d: 3 }, l: [3] });
  });
  it('JSON patch supports add, remove, replace, move, copy, test and "-"', () => {
    const doc = { a: [1, 2], b: { c: 'x' } };
    expect(
      jsonPatch(doc, [
        { op: 'add', path: '/a/-', value: 3 },
        { op: 'remove', path: '/a/0' },
        { op: 'copy', from: '/b/c', path: '/d' },
        { op: 'move', from: '/b', path: '/e' },
        { op: 'replace', path: '/d', value: 'y' },
        { op: 'test', path: '/a', value: [2, 3] },
        { op: 'add', path: '/e/k~1v', value: true },
      ]),
    ).toEqual({ a: [2, 3], d: 'y', e: { c: 'x', 'k/v': true } });
    expect(doc).toEqual({ a: [1, 2], b: { c: 'x' } });
  });
  it('strategic merge honours $patch directives and finalizer sets', () => {
    expect(
      strategicMerge(
        { metadata: { finalizers: ['a'] }, spec: { volumes: [{ name: 'v1', emptyDir: {} }, { name: 'v2' }], tolerations: [{ key: 'x' }] } },
        { metadata: { finalizers: ['b'] }, spec: { volumes: [{ name: 'v1', $patch: 'delete' }], tolerations: [{ key: 'y' }] } },
      ),
    ).toEqual({ metadata: { finalizers: ['a', 'b'] }, spec: { volumes: [{ name: 'v2' }], tolerations: [{ key: 'y' }] } });
    expect(strategicMerge({ m: { a: 1, b: 2 } }, { m: { $patch: 'replace', c: 3 } })).toEqual({ m: { c: 3 } });
  });
});
