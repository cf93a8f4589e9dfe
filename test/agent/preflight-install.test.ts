// An install whose preflight has one critical failure writes nothing to the cluster: no command is signed or
// queued, and the Kubernetes API never sees the ManagedComponent; the same install within capacity goes through.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { agentInventoryReported, harness, until, type Harness } from '../support/agent-harness';

let h: Harness;
beforeAll(async () => {
  h = await harness();
  h.startAgent('agent-a');
  await until(
    'a connected agent',
    () => h.api('GET', `/api/v1/clusters/${h.clusterId}/agent`).then((r) => (r.body.connected ? r.body : undefined)),
    40_000,
  );
  // The harness never registers a kubeconfig: the preflight judges the cluster on the inventory the agent reported.
  await agentInventoryReported(h);
}, 90_000);
afterAll(() => h?.close());

test('a preflight failure refuses the install before anything is written to the cluster', async () => {
  const huge = await h.api('POST', `/api/v1/clusters/${h.clusterId}/components`, {
    name: 'huge',
    spec: { component: 'etcd', version: '3.5.21', replicas: 3, resources: { cpu: '1000', memory: '1Gi' } },
  });
  expect(huge.status).toBe(409);
  expect(huge.body.error.code).toBe('preflight_failed');
  const failed = (huge.body.error.details.run.checks as { id: string; status: string }[])
    .filter((c) => c.status === 'fail')
    .map((c) => c.id);
  expect(failed).toEqual(['capacity']);
  expect((await h.api('GET', `/api/v1/commands?cluster_id=${h.clusterId}`)).body.items).toEqual([]);

  // The same path within capacity reaches the cluster through the agent: the refusal above was the preflight's.
  const small = await h.api('POST', `/api/v1/clusters/${h.clusterId}/components`, {
    name: 'small',
    spec: { component: 'etcd', version: '3.5.21', replicas: 1 },
  });
  expect(small.status).toBe(202);
  expect(small.body).toMatchObject({ action: 'install', preflight: { outcome: expect.stringMatching(/^(pass|warn)$/) } });
  await h.waitCommand(small.body.id, (c) => c.state === 'succeeded');
  const present = await h.components();
  expect([...present.keys()]).toEqual(['small']);
  expect((await h.api('GET', `/api/v1/clusters/${h.clusterId}/components`)).body.desired).not.toHaveProperty('huge');
}, 60_000);
