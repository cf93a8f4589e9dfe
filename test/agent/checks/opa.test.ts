// OPA's functional test against OPA's documented REST behaviour: the OPA test server of test/support, or the
// real binary when NAVIN_OPA_BIN is set (the same tests, unchanged). The policy listing, read back after each
// run, shows that no smoke policy is left, also when the test fails.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCheck, OPA_SMOKE_PREFIX } from '../../../agent/checks';
import { startOpa, type OpaUnderTest } from '../../support/opa/start-opa';

let opa: OpaUnderTest;
beforeAll(async () => {
  opa = await startOpa();
});
afterAll(() => opa?.close());

const call = async (method: string, path: string, body?: string) => {
  const res = await fetch(`${opa.url}${path}`, {
    method,
    ...(body !== undefined ? { body, headers: { 'content-type': 'text/plain' } } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const smokePolicies = async () =>
  ((await call('GET', '/v1/policies')).body.result as { id: string }[]).map((p) => p.id).filter((id) => id.startsWith(OPA_SMOKE_PREFIX));

test('liveness and the functional test pass: allowed read, denied write, policy gone afterwards', async () => {
  expect(await runCheck('http', { port: opa.port, path: '/health' })).toMatchObject({ status: 'pass' });
  const smoke = await runCheck('opa.policy', { url: opa.url });
  expect(smoke.status, JSON.stringify(smoke.error)).toBe('pass');
  expect(smoke.evidence.decisions).toEqual({ read: true, write: false });
  expect(smoke.steps?.map((s) => [s.name, s.status])).toEqual([
    ['load policy', 'pass'],
    ['decision allow', 'pass'],
    ['decision deny', 'pass'],
    ['remove policy', 'pass'],
  ]);
  expect(await smokePolicies()).toEqual([]);
  // With the policy removed the decision is undefined: OPA answers 200 without a result.
  const after = await fetch(`${opa.url}/v1/data/navin/smoke/n${String(smoke.evidence.nonce)}/allow`, {
    method: 'POST',
    body: JSON.stringify({ input: { subject: `navin-smoke-${String(smoke.evidence.nonce)}`, action: 'read' } }),
  });
  expect([after.status, await after.json()]).toEqual([200, {}]);
});

test('a policy replaced behind the test allows the write: the deny decision fails and the policy is still removed', async () => {
  const outcome = await runCheck(
    'opa.policy',
    { url: opa.url },
    {
      onStep: async (step, evidence) => {
        if (step.name !== 'load policy') return;
        const nonce = String(evidence.nonce);
        const r = await call(
          'PUT',
          `/v1/policies/${String(evidence.policy_id)}`,
          `package navin.smoke.n${nonce}\n\nimport rego.v1\n\ndefault allow := true\n`,
        );
        expect(r.status).toBe(200);
      },
    },
  );
  expect(outcome).toMatchObject({
    status: 'fail',
    error: { code: 'decision_wrong', message: 'the decision for write is true, must be false' },
  });
  expect(outcome.steps?.map((s) => [s.name, s.status])).toEqual([
    ['load policy', 'pass'],
    ['decision allow', 'pass'],
    ['decision deny', 'fail'],
    ['remove policy', 'pass'],
  ]);
  expect(await smokePolicies()).toEqual([]);
});

test('the REST behaviour the check relies on: a policy that does not compile is refused with 400, a missing one is 404', async () => {
  const bad = await call('PUT', '/v1/policies/navin-test-bad', 'package navin.bad\n\nimport rego.v1\n\nallow if {\n');
  expect(bad.status).toBe(400);
  expect(bad.body).toMatchObject({ code: 'invalid_parameter', errors: [expect.objectContaining({ code: 'rego_parse_error' })] });
  expect((await call('GET', '/v1/policies/navin-test-bad')).status).toBe(404);
  const missing = await call('DELETE', '/v1/policies/navin-test-missing');
  expect(missing).toMatchObject({ status: 404, body: { code: 'resource_not_found' } });
});

test('a stopped server fails liveness and the functional test as unreachable, the removal still attempted', async () => {
  await opa.stop();
  try {
    expect(await runCheck('http', { port: opa.port, path: '/health', timeout_ms: 2000 })).toMatchObject({
      status: 'fail',
      error: { code: 'unreachable' },
    });
    const smoke = await runCheck('opa.policy', { url: opa.url, timeout_ms: 2000 });
    expect(smoke).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
    expect(smoke.steps?.map((s) => [s.name, s.status])).toEqual([
      ['load policy', 'fail'],
      ['remove policy', 'fail'],
    ]);
  } finally {
    await opa.start();
  }
  expect((await runCheck('opa.policy', { url: opa.url })).status).toBe('pass');
});
