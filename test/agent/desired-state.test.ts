// The cluster agent enforces only a desired state whose signature verifies: one edited in its state ConfigMap
// (a component's version changed, a component added, the manager's signature kept) is never applied, neither
// restored over a hand change nor used to create anything; the manager's next signed state puts things right.
// Real processes against the Kubernetes API test server: the manager with its gateway and an agent replica.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { agentInventoryReported, harness, NS, until, type AgentProcess, type Harness } from '../support/agent-harness';

const SPEC = { component: 'opa', version: '1.4.2' };
const STATE = 'navin-cluster-agent-state';
const MC = { group: 'platform.navin.ai', version: 'v1alpha1', namespace: NS, plural: 'managedcomponents' };

describe('a desired state whose signature no longer verifies', () => {
  let h: Harness;
  let first: AgentProcess;

  beforeAll(async () => {
    h = await harness();
    first = h.startAgent('agent-a');
    await until(
      'a connected agent',
      () => h.api('GET', `/api/v1/clusters/${h.clusterId}/agent`).then((r) => (r.body.connected ? r.body : undefined)),
      40_000,
    );
    await agentInventoryReported(h);
  }, 90_000);
  afterAll(() => h?.close());

  test('is not applied: a component changed by hand stays as it is, nothing is created, and the refusal is logged', async () => {
    const res = await h.api('POST', `/api/v1/clusters/${h.clusterId}/components`, { name: 'policy', spec: SPEC });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await h.waitCommand(res.body.id, (c) => c.state === 'succeeded');
    expect((await h.components()).get('policy').spec).toEqual(SPEC);
    await first.kill();

    // The state as an intruder with write access to the ConfigMap would leave it: the signature untouched.
    const core = h.admin.makeApiClient(CoreV1Api);
    const cm = await core.readNamespacedConfigMap({ name: STATE, namespace: NS });
    const state = JSON.parse(cm.data!['state.json']!);
    expect(state.desired_state.payload.components.policy).toEqual(SPEC);
    state.desired_state.payload.components.policy = { component: 'opa', version: '6.6.6-intruder' };
    state.desired_state.payload.components.intruder = { component: 'opa', version: '1.4.2' };
    await core.replaceNamespacedConfigMap({ name: STATE, namespace: NS, body: { ...cm, data: { 'state.json': JSON.stringify(state) } } });
    const objects = h.admin.makeApiClient(CustomObjectsApi);
    const mc = (await h.components()).get('policy');
    await objects.replaceNamespacedCustomObject({
      ...MC,
      name: 'policy',
      body: { ...mc, spec: { component: 'opa', version: '0.0.1-by-hand' } },
    });

    // A fresh replica takes the Lease, loads the state, and runs a reconcile pass: refused, nothing written.
    const second = h.startAgent('agent-b');
    await second.waitFor('reconcile.refused', (l) => l.reason === 'desired_state_invalid', 60_000);
    const after = await h.components();
    expect(after.get('policy').spec).toEqual({ component: 'opa', version: '0.0.1-by-hand' });
    expect(after.has('intruder')).toBe(false);
    expect(second.logs().filter((l) => l.event === 'reconcile.restored')).toEqual([]);

    // The manager's next signed state verifies, so it is taken and enforced again.
    const next = { ...SPEC, config: { decision_logs: true } };
    const fix = await h.api('POST', `/api/v1/clusters/${h.clusterId}/components`, { name: 'policy', spec: next });
    expect(fix.status, JSON.stringify(fix.body)).toBe(202);
    await h.waitCommand(fix.body.id, (c) => c.state === 'succeeded');
    await until('policy as signed', async () =>
      (await h.components()).get('policy')?.spec.config?.decision_logs === true ? true : undefined,
    );
    expect((await h.components()).has('intruder')).toBe(false);
  }, 120_000);
});
