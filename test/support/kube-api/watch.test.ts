// Watches through client-node's Watch and informer: resume exactly once, 410 Expired, bookmarks, timeouts, selectors.
import { CoreV1Api, Watch, makeInformer } from '@kubernetes/client-node';
import type { KubernetesObject, V1ConfigMap, V1ConfigMapList } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';
import { kubeRequest } from './rest-client.js';
import { eventually, sleep } from './test-helpers.js';

let server: KubeApiServer;
let core: CoreV1Api;
beforeAll(async () => {
  server = await startKubeApiServer({ historyLimit: 50, bookmarkIntervalMs: 50 });
  core = server.kubeConfig().makeApiClient(CoreV1Api);
});
afterAll(() => server.close());

interface Seen {
  events: { type: string; name: string; rv: string; obj: Record<string, unknown> }[];
  done: Promise<unknown>;
  stop(): void;
}

const watchPath = async (path: string, query: Record<string, string | number | boolean | undefined>): Promise<Seen> => {
  const events: Seen['events'] = [];
  let resolveDone: (e: unknown) => void = () => undefined;
  const done = new Promise((r) => (resolveDone = r));
  const ctl = await new Watch(server.kubeConfig()).watch(
    path,
    query,
    (type, obj: KubernetesObject & Record<string, unknown>) =>
      events.push({ type, name: obj.metadata?.name ?? '', rv: obj.metadata?.resourceVersion ?? '', obj }),
    (err) => resolveDone(err),
  );
  return { events, done, stop: () => ctl.abort() };
};

const ns = async (name: string): Promise<void> => {
  await core.createNamespace({ body: { metadata: { name } } });
};
const cm = (name: string, labels?: Record<string, string>): V1ConfigMap => ({ metadata: { name, ...(labels ? { labels } : {}) } });

describe('resuming a watch', () => {
  it('from an old but retained resourceVersion sees every later event exactly once', async () => {
    await ns('w1');
    const start = (await core.listNamespacedConfigMap({ namespace: 'w1' })).metadata?.resourceVersion ?? '';
    await core.createNamespacedConfigMap({ namespace: 'w1', body: cm('a') });
    await core.patchNamespacedConfigMap({ name: 'a', namespace: 'w1', body: [{ op: 'add', path: '/data', value: { k: 'v' } }] });
    await core.createNamespacedConfigMap({ namespace: 'w1', body: cm('b') });
    await core.deleteNamespacedConfigMap({ name: 'a', namespace: 'w1' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('elsewhere') });

    const w = await watchPath('/api/v1/namespaces/w1/configmaps', { resourceVersion: start });
    await eventually(() => w.events.length >= 4);
    await core.patchNamespacedConfigMap({ name: 'b', namespace: 'w1', body: [{ op: 'add', path: '/data', value: { live: '1' } }] });
    await eventually(() => w.events.length >= 5);
    await sleep(100);
    w.stop();
    expect(w.events.map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED a', 'MODIFIED a', 'ADDED b', 'DELETED a', 'MODIFIED b']);
    const rvs = w.events.map((e) => Number(e.rv));
    expect([...rvs].sort((x, y) => x - y)).toEqual(rvs);
    expect(new Set(rvs).size).toBe(5);
    expect(w.events[3]?.obj).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
  });

  it('from a version older than the history window gets an ERROR event with 410 Expired, then the stream ends', async () => {
    await ns('w2');
    const old = (await core.listNamespacedConfigMap({ namespace: 'w2' })).metadata?.resourceVersion ?? '';
    for (let i = 0; i < 60; i++) await core.createNamespacedConfigMap({ namespace: 'w2', body: cm(`x${i}`) });
    const w = await watchPath('/api/v1/namespaces/w2/configmaps', { resourceVersion: old });
    expect(await w.done).toBeNull();
    expect(w.events).toHaveLength(1);
    expect(w.events[0]?.type).toBe('ERROR');
    expect(w.events[0]?.obj).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
    expect(String(w.events[0]?.obj.message)).toMatch(/^too old resource version: \d+ \(\d+\)$/);
  });

  it('client-node informers relist after 410 and go on watching', async () => {
    await ns('w3');
    await core.createNamespacedConfigMap({ namespace: 'w3', body: cm('first') });
    for (let i = 0; i < 60; i++) await core.createNamespacedConfigMap({ namespace: 'default', body: cm(`churn${i}`) });
    let lists = 0;
    const listFn = async (): Promise<V1ConfigMapList> => {
      const l = await core.listNamespacedConfigMap({ namespace: 'w3' });
      // The first list claims a long-gone resourceVersion, so the informer's watch gets 410.
      return ++lists === 1 ? { ...l, metadata: { ...l.metadata, resourceVersion: '1' } } : l;
    };
    const informer = makeInformer(server.kubeConfig(), '/api/v1/namespaces/w3/configmaps', listFn);
    const added: string[] = [];
    informer.on('add', (o) => added.push(o.metadata?.name ?? ''));
    await informer.start();
    await eventually(() => lists >= 2);
    await sleep(50);
    await core.createNamespacedConfigMap({ namespace: 'w3', body: cm('second') });
    await eventually(() => added.includes('second'));
    await informer.stop();
    expect(added.filter((n) => n !== 'kube-root-ca.crt')).toEqual(['first', 'second']);
  });
});

describe('watch options', () => {
  it('without a resourceVersion starts with ADDED for every existing object', async () => {
    await ns('w4');
    await core.createNamespacedConfigMap({ namespace: 'w4', body: cm('one') });
    const w = await watchPath('/api/v1/namespaces/w4/configmaps', {});
    await eventually(() => w.events.length >= 2);
    w.stop();
    expect(w.events.map((e) => `${e.type} ${e.name}`).sort()).toEqual(['ADDED kube-root-ca.crt', 'ADDED one']);
  });

  it('sends BOOKMARK events with allowWatchBookmarks=true', async () => {
    const rv = (await core.listNamespacedConfigMap({ namespace: 'default' })).metadata?.resourceVersion ?? '';
    const w = await watchPath('/api/v1/namespaces/default/configmaps', { resourceVersion: rv, allowWatchBookmarks: true });
    await eventually(() => w.events.some((e) => e.type === 'BOOKMARK'));
    w.stop();
    const b = w.events.find((e) => e.type === 'BOOKMARK');
    expect(b?.obj).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
    expect(Number(b?.rv)).toBeGreaterThanOrEqual(Number(rv));
  });

  it('ends the stream after timeoutSeconds', async () => {
    const t0 = Date.now();
    const w = await watchPath('/api/v1/namespaces/default/configmaps', {
      resourceVersion: server.store.resourceVersion(),
      timeoutSeconds: 1,
    });
    expect(await w.done).toBeNull();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  });

  it('reports objects entering and leaving a label selector as ADDED and DELETED', async () => {
    await ns('w5');
    const w = await watchPath('/api/v1/namespaces/w5/configmaps', {
      resourceVersion: server.store.resourceVersion(),
      labelSelector: 'app=x',
    });
    await core.createNamespacedConfigMap({ namespace: 'w5', body: cm('s', { app: 'x' }) });
    await core.createNamespacedConfigMap({ namespace: 'w5', body: cm('other', { app: 'y' }) });
    await core.patchNamespacedConfigMap({
      name: 's',
      namespace: 'w5',
      body: [{ op: 'replace', path: '/metadata/labels/app', value: 'y' }],
    });
    await core.patchNamespacedConfigMap({
      name: 's',
      namespace: 'w5',
      body: [{ op: 'replace', path: '/metadata/labels/app', value: 'x' }],
    });
    await eventually(() => w.events.length >= 3);
    await sleep(50);
    w.stop();
    expect(w.events.map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED s', 'DELETED s', 'ADDED s']);
  });

  it('watches one object by field selector and all namespaces at once', async () => {
    const rv = server.store.resourceVersion();
    const one = await watchPath('/api/v1/namespaces/default/configmaps', { resourceVersion: rv, fieldSelector: 'metadata.name=target' });
    const all = await watchPath('/api/v1/configmaps', { resourceVersion: rv });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('decoy') });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('target') });
    await eventually(() => one.events.length >= 1 && all.events.length >= 2);
    one.stop();
    all.stop();
    expect(one.events.map((e) => e.name)).toEqual(['target']);
    expect(all.events.map((e) => e.name)).toEqual(['decoy', 'target']);
  });
});

describe('watch as Table', () => {
  it('with Accept …;as=Table sends every event as a one-row Table, the column definitions with the first only', async () => {
    await ns('w6');
    await core.createNamespacedConfigMap({ namespace: 'w6', body: { metadata: { name: 'a' }, data: { k: 'v' } } });
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
    const stream = kubeRequest(
      server.kubeConfig(),
      'GET',
      '/api/v1/namespaces/w6/configmaps?watch=true&timeoutSeconds=1',
      undefined,
      'application/json',
      {
        Accept: accept,
      },
    );
    await sleep(200);
    await core.createNamespacedConfigMap({ namespace: 'w6', body: { metadata: { name: 'b' } } });
    const events = (await stream).text
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            type: string;
            object: { kind: string; columnDefinitions: { name: string }[] | null; rows: { cells: unknown[] }[] };
          },
      );
    expect(events.map((e) => [e.type, e.object.kind, e.object.rows.map((r) => r.cells[0])])).toEqual([
      ['ADDED', 'Table', ['a']],
      ['ADDED', 'Table', ['kube-root-ca.crt']],
      ['ADDED', 'Table', ['b']],
    ]);
    expect(events[0]?.object.columnDefinitions?.map((c) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(events.slice(1).map((e) => e.object.columnDefinitions)).toEqual([null, null]);
    expect(events[0]?.object.rows[0]?.cells[1]).toBe(1);
  });
});
