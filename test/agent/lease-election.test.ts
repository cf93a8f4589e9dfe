// Leader election against an API server that stops answering: the leader steps down by its own deadline, and
// once the server answers again a replica takes the lease back (a hung call no longer stops the ticks).
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import { LeaseElector } from '../../agent/lease-election';
import { startKubeApiServer, type KubeApiServer } from '../support/kube-api';

let kube: KubeApiServer;
beforeAll(async () => {
  kube = await startKubeApiServer();
});
afterAll(() => kube?.close());

const until = async (what: () => boolean, ms: number): Promise<boolean> => {
  const end = performance.now() + ms;
  while (!what() && performance.now() < end) await new Promise((r) => setTimeout(r, 50));
  return what();
};

test('a leader whose API server hangs steps down, and leads again once it answers', async () => {
  const elector = new LeaseElector({
    kc: kube.kubeConfig(),
    namespace: 'default',
    name: 'hang-test',
    identity: 'replica-1',
    leaseDurationS: 3,
  });
  onTestFinished(() => elector.stop());
  elector.start();
  expect(await until(() => elector.isLeader(), 5000)).toBe(true);
  // Accepted, never answered within the lease: every renewal hangs.
  kube.faults.setLatency(60_000);
  onTestFinished(() => kube.faults.reset());
  expect(await until(() => !elector.isLeader(), 5000)).toBe(true);
  kube.faults.reset();
  expect(await until(() => elector.isLeader(), 8000)).toBe(true);
}, 25_000);

test('a lease renewed by a replica whose clock is an hour behind is not taken while it is renewed', async () => {
  const opts = { kc: kube.kubeConfig(), namespace: 'default', name: 'skew-behind', leaseDurationS: 3 };
  const behind = new LeaseElector({ ...opts, identity: 'behind', now: () => new Date(Date.now() - 3_600_000) });
  onTestFinished(() => behind.stop());
  behind.start();
  expect(await until(() => behind.isLeader(), 5000)).toBe(true);
  const me = new LeaseElector({ ...opts, identity: 'me' });
  onTestFinished(() => me.stop());
  me.start();
  // Two lease durations: the holder's renewTime reads an hour old here, but the record keeps changing.
  expect(await until(() => me.isLeader() || !behind.isLeader(), 6000)).toBe(false);
}, 20_000);

test('a lease whose holder stopped renewing with its clock an hour ahead is taken after its duration, not an hour', async () => {
  const opts = { kc: kube.kubeConfig(), namespace: 'default', name: 'skew-ahead', leaseDurationS: 3 };
  const ahead = new LeaseElector({ ...opts, identity: 'ahead', now: () => new Date(Date.now() + 3_600_000) });
  ahead.start();
  expect(await until(() => ahead.isLeader(), 5000)).toBe(true);
  await ahead.stop();
  const me = new LeaseElector({ ...opts, identity: 'me' });
  onTestFinished(() => me.stop());
  me.start();
  expect(await until(() => me.isLeader(), 8000)).toBe(true);
}, 20_000);
