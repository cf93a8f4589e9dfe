// OpenFGA's functional test with @openfga/sdk against OpenFGA's documented HTTP API: the OpenFGA test server of
// test/support, or the real binary when NAVIN_OPENFGA_BIN is set (the same tests, unchanged). The store
// listing, read back after each run, shows that no smoke store is left, also when the test fails.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCheck, OPENFGA_SMOKE_MODEL, OPENFGA_SMOKE_PREFIX } from '../../../agent/checks';
import { startOpenfga, type OpenfgaUnderTest } from '../../support/openfga/start-openfga';

let fga: OpenfgaUnderTest;
beforeAll(async () => {
  fga = await startOpenfga();
});
afterAll(() => fga?.close());

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${fga.url}${path}`, {
    method,
    ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
};
const smokeStores = async () =>
  ((await api('GET', '/stores?page_size=100')).body.stores as { name: string }[])
    .map((s) => s.name)
    .filter((n) => n.startsWith(OPENFGA_SMOKE_PREFIX));

test('liveness and the functional test pass: store, model, tuple, one check allowed and one denied, store deleted', async () => {
  expect(await runCheck('http', { port: fga.port, path: '/healthz' })).toMatchObject({ status: 'pass' });
  const smoke = await runCheck('openfga.check', { url: fga.url });
  expect(smoke.status, JSON.stringify(smoke.error)).toBe('pass');
  const nonce = String(smoke.evidence.nonce);
  expect(smoke.evidence.checks).toEqual({ [`user:allowed-${nonce}`]: true, [`user:denied-${nonce}`]: false });
  expect(smoke.steps?.map((s) => [s.name, s.status])).toEqual([
    ['create store', 'pass'],
    ['write model', 'pass'],
    ['write tuple', 'pass'],
    ['check allowed', 'pass'],
    ['check denied', 'pass'],
    ['delete store', 'pass'],
  ]);
  expect(await smokeStores()).toEqual([]);
  expect((await api('GET', `/stores/${String(smoke.evidence.store_id)}`)).status).toBe(404);
});

test('a tuple granted behind the test makes the denied check allowed: the test fails and its store is still deleted', async () => {
  const outcome = await runCheck(
    'openfga.check',
    { url: fga.url },
    {
      onStep: async (step, evidence) => {
        if (step.name !== 'write tuple') return;
        const nonce = String(evidence.nonce);
        const r = await api('POST', `/stores/${String(evidence.store_id)}/write`, {
          authorization_model_id: evidence.model_id,
          writes: { tuple_keys: [{ user: `user:denied-${nonce}`, relation: 'viewer', object: `document:${nonce}` }] },
        });
        expect(r.status).toBe(200);
      },
    },
  );
  expect(outcome).toMatchObject({ status: 'fail', error: { code: 'decision_wrong' } });
  expect(outcome.steps?.map((s) => [s.name, s.status])).toEqual([
    ['create store', 'pass'],
    ['write model', 'pass'],
    ['write tuple', 'pass'],
    ['check allowed', 'pass'],
    ['check denied', 'fail'],
    ['delete store', 'pass'],
  ]);
  expect(await smokeStores()).toEqual([]);
});

test('the HTTP behaviour the check relies on: tuples are judged against the model, a duplicate write is refused', async () => {
  const store = await api('POST', '/stores', { name: 'navin-test-rest' });
  expect(store.status).toBe(201);
  const id = store.body.id as string;
  try {
    const model = await api('POST', `/stores/${id}/authorization-models`, OPENFGA_SMOKE_MODEL);
    expect(model.status).toBe(201);
    const mid = model.body.authorization_model_id as string;
    const bad = await api('POST', `/stores/${id}/write`, {
      authorization_model_id: mid,
      writes: { tuple_keys: [{ user: 'user:a', relation: 'editor', object: 'document:x' }] },
    });
    expect(bad.status).toBe(400);
    const tuple = { user: 'user:a', relation: 'viewer', object: 'document:x' };
    expect((await api('POST', `/stores/${id}/write`, { authorization_model_id: mid, writes: { tuple_keys: [tuple] } })).status).toBe(200);
    const dup = await api('POST', `/stores/${id}/write`, { authorization_model_id: mid, writes: { tuple_keys: [tuple] } });
    expect(dup.status).toBe(400);
    const check = await api('POST', `/stores/${id}/check`, { authorization_model_id: mid, tuple_key: tuple });
    expect(check).toMatchObject({ status: 200, body: { allowed: true } });
    const contextual = await api('POST', `/stores/${id}/check`, {
      authorization_model_id: mid,
      tuple_key: { ...tuple, user: 'user:b' },
      contextual_tuples: { tuple_keys: [{ ...tuple, user: 'user:b' }] },
    });
    expect(contextual.body.allowed).toBe(true);
  } finally {
    expect((await api('DELETE', `/stores/${id}`)).status).toBe(204);
  }
});

test('a stopped server fails liveness and the functional test as unreachable', async () => {
  await fga.stop();
  try {
    expect(await runCheck('http', { port: fga.port, path: '/healthz', timeout_ms: 2000 })).toMatchObject({
      status: 'fail',
      error: { code: 'unreachable' },
    });
    const smoke = await runCheck('openfga.check', { url: fga.url, timeout_ms: 2000 });
    expect(smoke).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
    // No store id came back, so the clean-up looked the store up by its fresh name, and could not.
    expect(smoke.steps?.map((s) => [s.name, s.status])).toEqual([
      ['create store', 'fail'],
      ['delete store', 'fail'],
    ]);
  } finally {
    await fga.start();
  }
  expect((await runCheck('openfga.check', { url: fga.url })).status).toBe('pass');
});
