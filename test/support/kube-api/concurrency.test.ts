// Optimistic concurrency: resourceVersion preconditions on Leases and ConfigMaps, as leader election relies on.
import { CoordinationV1Api, CoreV1Api, V1MicroTime } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';
import { failure, statusOf } from './test-helpers.js';

let server: KubeApiServer;
beforeAll(async () => {
  server = await startKubeApiServer();
  await server
    .kubeConfig()
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name: 'navin-platform' } } });
});
afterAll(() => server.close());

describe('Lease updated by two clients at once', () => {
  it('leaves exactly one winner and one 409 Conflict with the real message', async () => {
    const [a, b] = [server.kubeConfig(), server.kubeConfig()].map((kc) => kc.makeApiClient(CoordinationV1Api));
    if (!a || !b) throw new Error('clients');
    await a.createNamespacedLease({
      namespace: 'navin-platform',
      body: { metadata: { name: 'navin-cluster-agent' }, spec: { holderIdentity: '', leaseDurationSeconds: 15 } },
    });
    const [seenA, seenB] = await Promise.all([
      a.readNamespacedLease({ name: 'navin-cluster-agent', namespace: 'navin-platform' }),
      b.readNamespacedLease({ name: 'navin-cluster-agent', namespace: 'navin-platform' }),
    ]);
    expect(seenA.metadata?.resourceVersion).toBe(seenB.metadata?.resourceVersion);
    const claim = (api: CoordinationV1Api, lease: typeof seenA, who: string): Promise<unknown> =>
      api.replaceNamespacedLease({
        name: 'navin-cluster-agent',
        namespace: 'navin-platform',
        body: { ...lease, spec: { ...lease.spec, holderIdentity: who, acquireTime: new V1MicroTime(), renewTime: new V1MicroTime() } },
      });
    const results = await Promise.allSettled([claim(a, seenA, 'replica-a'), claim(b, seenB, 'replica-b')]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(statusOf(lost[0]?.reason)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Operation cannot be fulfilled on leases.coordination.k8s.io "navin-cluster-agent": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: { name: 'navin-cluster-agent', group: 'coordination.k8s.io', kind: 'leases' },
      code: 409,
    });
    const final = await a.readNamespacedLease({ name: 'navin-cluster-agent', namespace: 'navin-platform' });
    const winner = results[0]?.status === 'fulfilled' ? 'replica-a' : 'replica-b';
    expect(final.spec?.holderIdentity).toBe(winner);
    expect(String(final.spec?.renewTime)).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });
});

describe('ConfigMap state updated with resourceVersion', () => {
  it('rejects a stale write and accepts one from the latest version', async () => {
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const created = await core.createNamespacedConfigMap({
      namespace: 'navin-platform',
      body: { metadata: { name: 'navin-cluster-agent-state' }, data: { nonces: '[]' } },
    });
    const next = await core.replaceNamespacedConfigMap({
      name: 'navin-cluster-agent-state',
      namespace: 'navin-platform',
      body: { ...created, data: { nonces: '["n1"]' } },
    });
    const stale = await failure(
      core.replaceNamespacedConfigMap({
        name: 'navin-cluster-agent-state',
        namespace: 'navin-platform',
        body: { ...created, data: { nonces: '["n2"]' } },
      }),
    );
    expect(stale).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: expect.stringContaining('configmaps "navin-cluster-agent-state": the object has been modified'),
    });
    const latest = await core.replaceNamespacedConfigMap({
      name: 'navin-cluster-agent-state',
      namespace: 'navin-platform',
      body: { ...next, data: { nonces: '["n1","n2"]' } },
    });
    expect(latest.data?.nonces).toBe('["n1","n2"]');
  });

  it('accepts an update without resourceVersion for built-in kinds (last write wins)', async () => {
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const r = await core.replaceNamespacedConfigMap({
      name: 'navin-cluster-agent-state',
      namespace: 'navin-platform',
      body: { metadata: { name: 'navin-cluster-agent-state' }, data: { nonces: '[]' } },
    });
    expect(r.data?.nonces).toBe('[]');
  });

  it('refuses a mismatched name in the body', async () => {
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const s = await failure(
      core.replaceNamespacedConfigMap({
        name: 'navin-cluster-agent-state',
        namespace: 'navin-platform',
        body: { metadata: { name: 'other' } },
      }),
    );
    expect(s).toMatchObject({
      code: 400,
      message: 'the name of the object (other) does not match the name on the URL (navin-cluster-agent-state)',
    });
  });

  it('checks delete preconditions', async () => {
    const core = server.kubeConfig().makeApiClient(CoreV1Api);
    const s = await failure(
      core.deleteNamespacedConfigMap({
        name: 'navin-cluster-agent-state',
        namespace: 'navin-platform',
        body: { preconditions: { resourceVersion: '1' } },
      }),
    );
    expect(s.code).toBe(409);
    expect(s.message).toMatch(/Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: \d+/);
  });
});
