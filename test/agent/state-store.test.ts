// The cluster agent's ConfigMap state: one replica's writes land one after the other, each on the state the
// previous one left; a write by another replica is still a conflict.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ConfigMapStateStore, StateConflict } from '../../agent/state-store';
import { startKubeApiServer, type KubeApiServer } from '../support/kube-api';

let kube: KubeApiServer;
beforeAll(async () => {
  kube = await startKubeApiServer();
});
afterAll(() => kube?.close());

const receipt = (id: string) => ({ command_id: id, status: 'succeeded' as const, executed_at: new Date().toISOString(), replica: 'r1' });

test("a replica's writes started together all land, none lost to a conflict with its own", async () => {
  const store = new ConfigMapStateStore(kube.kubeConfig(), 'default', 'state-concurrent');
  await store.load();
  await Promise.all([
    store.update((s) => void (s.receipts.a = receipt('a'))),
    store.update((s) => void s.unsent.push('a')),
    store.update((s) => void (s.receipts.b = receipt('b'))),
  ]);
  const fresh = new ConfigMapStateStore(kube.kubeConfig(), 'default', 'state-concurrent');
  const stored = await fresh.load();
  expect(Object.keys(stored.receipts).sort()).toEqual(['a', 'b']);
  expect(stored.unsent).toEqual(['a']);
});

test('a write over one made by another replica since is a conflict, and the store reloads', async () => {
  const mine = new ConfigMapStateStore(kube.kubeConfig(), 'default', 'state-two-replicas');
  const other = new ConfigMapStateStore(kube.kubeConfig(), 'default', 'state-two-replicas');
  await mine.load();
  await other.load();
  await other.update((s) => void (s.nonces.n1 = new Date(Date.now() + 60_000).toISOString()));
  await expect(mine.update((s) => void (s.nonces.n1 = new Date(Date.now() + 60_000).toISOString()))).rejects.toBeInstanceOf(StateConflict);
  expect(Object.keys(mine.state.nonces)).toEqual(['n1']);
});

test('a state read the API server never answers fails by its deadline rather than holding the command queue', async () => {
  const store = new ConfigMapStateStore(kube.kubeConfig(), 'default', 'state-hung', 500);
  kube.faults.setLatency(60_000);
  try {
    await expect(store.load()).rejects.toThrow(/abort/i);
  } finally {
    kube.faults.reset();
  }
  await expect(store.load()).resolves.toMatchObject({ unsent: [] });
}, 10_000);

test('a ConfigMap whose state is not JSON is state_corrupt, with how to start afresh', async () => {
  kube.store.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'state-corrupt', namespace: 'default' },
    data: { 'state.json': '{"nonces": {' },
  });
  const store = new ConfigMapStateStore(kube.kubeConfig(), 'default', 'state-corrupt');
  await expect(store.load()).rejects.toMatchObject({ code: 'state_corrupt', message: expect.stringMatching(/delete it to start afresh/) });
});
