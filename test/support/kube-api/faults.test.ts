// Fault hooks: injected 429/500/503 Status answers, latency, dropped connections, stop and restart with the same data.
import { CoreV1Api, Watch } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeRequest } from './rest-client.js';
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

describe('injected failures', () => {
  it('answer the next N requests with the Status of the code, then recover', async () => {
    server.faults.failNext(2, 503);
    expect(await failure(core.listNamespace())).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server is currently unable to handle the request',
      reason: 'ServiceUnavailable',
      details: {},
      code: 503,
    });
    expect((await failure(core.listNamespace())).code).toBe(503);
    expect((await core.listNamespace()).items.length).toBeGreaterThan(0);
  });

  it('429 carries Retry-After; 500 is an InternalError', async () => {
    server.faults.failNext(1, 429, { retryAfterSeconds: 3 });
    const r = await kubeRequest(server.kubeConfig(), 'GET', '/api/v1/namespaces');
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('3');
    expect(JSON.parse(r.text)).toMatchObject({ reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 3 } });
    server.faults.failNext(1, 500);
    expect(await failure(core.listNamespace())).toMatchObject({ code: 500, reason: 'InternalError' });
  });

  it('can target matching requests only', async () => {
    server.faults.failNext(1, 503, { match: (r) => r.path.includes('/configmaps') });
    await core.listNamespace();
    expect((await failure(core.listNamespacedConfigMap({ namespace: 'default' }))).code).toBe(503);
    await core.listNamespacedConfigMap({ namespace: 'default' });
  });

  it('latency delays every request', async () => {
    server.faults.setLatency(150);
    const t0 = Date.now();
    await core.listNamespace();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    server.faults.reset();
  });
});

describe('connections and restarts', () => {
  it('dropConnections ends held watches; the server keeps serving', async () => {
    let done: unknown = 'pending';
    await new Watch(server.kubeConfig()).watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: server.store.resourceVersion() },
      () => undefined,
      (err) => (done = err),
    );
    await eventually(() => server.requests.some((r) => r.query.includes('watch=true')));
    server.faults.dropConnections();
    await eventually(() => done !== 'pending');
    expect((await core.listNamespace()).items.length).toBeGreaterThan(0);
  });

  it('stop refuses connections; start serves the same data on the same port, and watches resume', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'persisted' } } });
    const rv = server.store.resourceVersion();
    const port = server.port;
    await server.stop();
    const err = await core.listNamespace().catch((e: unknown) => e);
    expect(String((err as Error).message ?? err)).toMatch(/ECONNREFUSED/);
    server.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'while-down', namespace: 'default' } });
    await server.start();
    expect(server.port).toBe(port);
    expect((await core.readNamespacedConfigMap({ name: 'persisted', namespace: 'default' })).metadata?.name).toBe('persisted');
    const seen: string[] = [];
    const ctl = await new Watch(server.kubeConfig()).watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: rv },
      (t, o: { metadata: { name: string } }) => seen.push(`${t} ${o.metadata.name}`),
      () => undefined,
    );
    await eventually(() => seen.length >= 1);
    ctl.abort();
    expect(seen).toEqual(['ADDED while-down']);
  });

  it('keeps a log of requests with user and status code', () => {
    const r = server.requests.find((x) => x.path === '/api/v1/namespaces/default/configmaps/persisted');
    expect(r).toMatchObject({ method: 'GET', user: 'admin', code: 200 });
  });
});
