// Fuzzing the console listener: random and hostile JSON (lone surrogates, depth, sizes, numbers), queries and
// path segments at every route of the API table, as an admin, anonymously and with forged credentials, both as
// random bodies and as valid bodies with hostile values planted in them. Every answer is a 2xx or a 4xx, never
// a 5xx nor a dropped connection, and the listener still answers afterwards.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { consoleApi } from '../../../main/api/console-api';
import { MAX_BODY } from '../../../main/headless/https-server';
import { testManager, type TestManager } from '../../support/manager';
import { startListeners, type RunningListeners } from '../../support/listeners';
import { httpsCall } from '../../support/https-call';
import { hostileBody, hostileQuery, hostileSegment, type Value } from '../../support/hostile-json';

// Write routes with a valid body to start from get more runs: that is where hostile values get furthest.
const RUNS = { seeded: 40, other: 10 };
const ROUTES = consoleApi().list();
const FIELDS = [
  'name',
  'description',
  'tenant',
  'profile',
  'password',
  'role',
  'token',
  'code',
  'mfa_token',
  'expires',
  'spec',
  'component',
  'version',
  'replicas',
  'artifacts',
  'resources',
  'config',
  'namespace',
  'server_name',
  'offline_after_s',
  'approval_id',
  'service',
  'action',
  'reason',
  'note',
  'cluster_id',
  'ca_pem',
  'port',
  'transport',
];
const QUERY = [
  'limit',
  'before_seq',
  'cluster_id',
  'state',
  'action',
  'actor',
  'namespace',
  'image',
  'lang',
  'target',
  'status',
  'approval_id',
];
const SPEC: Value = {
  component: 'opa',
  version: '1.4.2',
  replicas: 2,
  resources: { cpu: '100m', memory: '64Mi' },
  artifacts: [{ name: 'opa', image: `registry.local/openpolicyagent/opa@sha256:${'e'.repeat(64)}` }],
  config: { decision_logs: { console: true }, labels: ['a', 'b'] },
};
// Valid bodies of the write routes: the fuzz plants hostile values in them. The gateway URL is never contacted.
const seeds = (clusterId: string): Record<string, Value[]> => ({
  'POST /api/v1/session': [{ name: 'alice', password: 'not the password' }],
  'POST /api/v1/session/mfa': [{ mfa_token: 'x', code: '123456' }],
  'POST /api/v1/session/ticket': [{ token: 'x' }],
  'POST /api/v1/setup': [{ token: 'x', name: 'root', password: 'a long enough password' }],
  'POST /api/v1/users': [{ name: 'bob', role: 'viewer', password: 'a long enough password' }],
  'POST /api/v1/users/:name/tokens': [{ expires: '30d' }, {}],
  'POST /api/v1/clusters': [{ name: 'edge-x', description: 'a cluster', tenant: 'ops', profile: 'development' }],
  'PATCH /api/v1/clusters/:id': [{ description: 'changed', tenant: 'ops' }],
  'PUT /api/v1/clusters/:id/profile': [{ profile: 'development', reason: 'back to development' }],
  'POST /api/v1/clusters/:id/components': [{ name: 'policy', spec: SPEC }],
  'POST /api/v1/clusters/:id/components/:name/actions': [{ action: 'restart' }],
  'POST /api/v1/clusters/:id/kubernetes/agent': [{ gateway_url: 'https://127.0.0.1:8462', server_name: 'localhost', offline_after_s: 120 }],
  'POST /api/v1/clusters/:id/backups/:set/restore': [{ service: 'etcd' }],
  'POST /api/v1/approvals': [{ cluster_id: clusterId, action: 'restart', service: 'policy', reason: 'maintenance' }],
  'POST /api/v1/approvals/:id/approve': [{ note: 'ok' }],
  'POST /api/v1/approvals/:id/reject': [{ note: 'no' }],
  'PUT /api/v1/settings/syslog': [{ port: 514, transport: 'udp' }],
  'PUT /api/v1/settings/dns': [{}],
  'PUT /api/v1/settings/mirror': [{ ca_pem: '' }],
  'PUT /api/v1/settings/endpoint-trust': [{ ca_pem: '' }],
});

let t: TestManager;
let listeners: RunningListeners;
let token: string;
let real: string[];
const seen = new Map<string, number>();

beforeAll(async () => {
  t = testManager();
  listeners = await startListeners(t);
  await t.manager.accounts.addUser('alice', 'admin', 'correct horse battery', 'test');
  token = t.manager.accounts.createApiToken('alice', 'test');
  const clusterId = t.manager.clusters.create({ name: 'edge-1' }, 'test').id;
  real = [clusterId, 'alice', 'policy'];
});
afterAll(async () => {
  await listeners?.close();
  t?.close();
});

const auth = fc.constantFrom<Record<string, string>>(
  ...Array<Record<string, string>>(5).fill({ authorization: 'token' }),
  {},
  { authorization: 'Bearer nv_forged' },
  { cookie: 'navin_session=forged' },
  { cookie: 'navin_session=%E0%A4%A' },
);

describe('every route of the console API', () => {
  test.each(ROUTES.map((r) => [`${r.method} ${r.pattern}`, r] as const))(
    '%s answers hostile input with 2xx or 4xx',
    async (name, route) => {
      // The fixture cluster is not deleted under the fuzz's feet: the other routes would only see 404s.
      const ids = route.method === 'DELETE' && route.pattern === '/api/v1/clusters/:id' ? [] : real;
      const segments = route.pattern.split('/').filter((p) => p.startsWith(':')).length;
      const routeSeeds = seeds(real[0]!)[name];
      const input = fc.record({
        segments: fc.array(hostileSegment(ids), { minLength: segments, maxLength: segments }),
        query: hostileQuery(QUERY),
        body: route.method === 'GET' ? fc.constant(undefined) : hostileBody({ fields: FIELDS, limit: MAX_BODY, seeds: routeSeeds }),
        headers: auth,
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ segments, query, body, headers }) => {
          let i = 0;
          const path = route.pattern.replace(/:[a-z]+/g, () => segments[i++]!) + (query ? `?${query}` : '');
          const h = headers.authorization === 'token' ? { authorization: `Bearer ${token}` } : headers;
          const r = await httpsCall(listeners.console.url, path, { method: route.method, body, ca: t.manager.ca.certPem, headers: h });
          const kind = `${r.status} ${(r.json as { error?: { code?: string } } | undefined)?.error?.code ?? ''}`.trim();
          seen.set(kind, (seen.get(kind) ?? 0) + 1);
          if (r.status < 200 || r.status >= 500)
            throw new Error(`${route.method} ${path.slice(0, 200)} → ${r.status} ${r.text.slice(0, 300)}`);
        }),
        { numRuns: routeSeeds ? RUNS.seeded : RUNS.other },
      );
    },
    60_000,
  );
});

test('the fuzz reached the handlers, and the listener still answers after it', async () => {
  // Had every request been refused at the door, the property above would prove little.
  for (const kind of ['200', '201', '400 invalid_json', '400 invalid_field', '401 unauthenticated', '404 not_found', '413 body_too_large'])
    expect(seen.get(kind) ?? 0, `${kind} in ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
  const health = await httpsCall(listeners.console.url, '/api/v1/health', { ca: t.manager.ca.certPem });
  expect(health.status).toBe(200);
  const list = await httpsCall(listeners.console.url, '/api/v1/clusters', {
    ca: t.manager.ca.certPem,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(list.status).toBe(200);
  expect(t.manager.store.audit.verify()).toMatchObject({ ok: true });
});
