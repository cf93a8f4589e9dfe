// Fuzzing the agent gateway as an agent with a valid client certificate: random and hostile JSON (lone
// surrogates, depth, sizes, numbers) and queries at its routes, as random bodies and as valid reports and
// receipts with hostile values planted in them. Every answer is a 2xx or a 4xx, never a 5xx nor a dropped
// connection; afterwards the gateway still serves a poll, and the acceptance report of the cluster still builds
// from whatever inventory the fuzz left stored.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import type { Gateway } from '../../../../main/core/gateway/gateway';
import { GATEWAY_MAX_BODY } from '../../../../main/wire/protocol';
import { GATEWAY_PATHS } from '../../../../main/wire/protocol';
import { testManager, type TestManager } from '../../../support/manager';
import { startTestGateway, agentCert } from '../../../support/test-gateway';
import { httpsCall } from '../../../support/https-call';
import type { ClientCert } from '../../../support/gateway-client';
import { hostileBody, hostileQuery, type Value } from '../../../support/hostile-json';

const RUNS = 120;
const FIELDS = [
  'replica',
  'agent_version',
  'leader',
  'inventory',
  'components',
  'receipts',
  'command_id',
  'status',
  'code',
  'message',
  'result',
  'executed_at',
  'original',
  'kubernetes_version',
  'nodes',
];

let t: TestManager;
let gw: Gateway;
let cert: ClientCert;
let clusterId: string;
let commandIds: string[];
const seen = new Map<string, number>();

beforeAll(async () => {
  t = testManager();
  // Polls answer at once, and the one agent is not rate-limited: the fuzz is about bodies and queries, not about
  // waiting, and must reach the handlers.
  gw = (await startTestGateway(t, { longPollMaxS: 0, agentRateLimit: { burst: 100_000, perMinute: 100_000 } })).gateway;
  clusterId = t.manager.clusters.create({ name: 'edge-1' }, 'test').id;
  cert = agentCert(t, clusterId);
  commandIds = Array.from({ length: 4 }, () => t.manager.commands.issue(clusterId, 'inventory.report', {}, 'test').id);
});
afterAll(async () => {
  await gw?.close();
  t?.close();
});

const call = (method: string, path: string, body?: string | Buffer) =>
  httpsCall(gw.url, path, { method, body, ca: cert.caPem, cert: cert.certPem, key: cert.keyPem, servername: 'localhost' });

function seeds(): Record<string, Value[]> {
  const receipt = (id: string, status: string): Value => ({
    command_id: id,
    status,
    message: 'done',
    result: { observed: { policy: { version: '1.4.2' } } },
    executed_at: '2026-01-01T00:00:00.000Z',
    replica: 'agent-a',
  });
  return {
    [`POST ${GATEWAY_PATHS.report}`]: [
      {
        replica: 'agent-a',
        agent_version: '0.1.0',
        leader: true,
        inventory: {
          kubernetes_version: 'v1.30.2',
          nodes: [{ name: 'n1', ready: true, cpu: '4', memory: '8Gi' }],
          namespaces: ['navin-platform'],
        },
        components: { policy: { component: 'opa', version: '1.4.2', ready: 2 } },
      },
    ],
    [`POST ${GATEWAY_PATHS.receipts}`]: [
      { receipts: [receipt(commandIds[0]!, 'succeeded')] },
      { receipts: [receipt(commandIds[1]!, 'rejected'), receipt(commandIds[2]!, 'failed')] },
      {
        receipts: [
          {
            ...(receipt(commandIds[3]!, 'rejected') as Record<string, Value>),
            code: 'nonce_replayed',
            original: { status: 'succeeded', result: {}, executed_at: '2026-01-01T00:00:00.000Z' },
          },
        ],
      },
    ],
  };
}

const ROUTES = [
  { method: 'GET', path: GATEWAY_PATHS.commands },
  { method: 'POST', path: GATEWAY_PATHS.report },
  { method: 'POST', path: GATEWAY_PATHS.receipts },
  // Wrong methods and unknown paths are part of what an attacker sends too.
  { method: 'POST', path: GATEWAY_PATHS.commands },
  { method: 'PUT', path: GATEWAY_PATHS.report },
  { method: 'POST', path: '/v1/cluster-agent/nope' },
];

describe('every gateway route', () => {
  test.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s answers hostile input with 2xx or 4xx',
    async (_, route) => {
      const routeSeeds = seeds()[`${route.method} ${route.path}`];
      const input = fc.record({
        query: hostileQuery(['wait', 'since', 'limit']),
        body: route.method === 'GET' ? fc.constant(undefined) : hostileBody({ fields: FIELDS, limit: GATEWAY_MAX_BODY, seeds: routeSeeds }),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ query, body }) => {
          const path = route.path + (query ? `?${query}` : '');
          const r = await call(route.method, path, body);
          const kind = `${r.status} ${(r.json as { error?: { code?: string } } | undefined)?.error?.code ?? ''}`.trim();
          seen.set(kind, (seen.get(kind) ?? 0) + 1);
          if (r.status < 200 || r.status >= 500)
            throw new Error(`${route.method} ${path.slice(0, 200)} → ${r.status} ${r.text.slice(0, 300)}`);
        }),
        { numRuns: routeSeeds ? RUNS : RUNS / 4 },
      );
    },
    60_000,
  );
});

test('the fuzz reached the handlers, the gateway still serves a poll, and the cluster still gets its report', async () => {
  for (const kind of ['200', '400 invalid_json', '400 bad_request', '404 not_found', '413 body_too_large'])
    expect(seen.get(kind) ?? 0, `${kind} in ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
  const poll = await call('GET', `${GATEWAY_PATHS.commands}?wait=0`);
  expect(poll.status).toBe(200);
  expect(Array.isArray(poll.json.commands)).toBe(true);
  const report = await t.call('POST', `/api/v1/clusters/${clusterId}/acceptance`, {}, { bearer: await adminToken() });
  expect(report.status, JSON.stringify(report.body).slice(0, 300)).toBeLessThan(300);
  expect(t.manager.store.audit.verify()).toMatchObject({ ok: true });
});

async function adminToken(): Promise<string> {
  await t.manager.accounts.addUser('alice', 'admin', 'correct horse battery', 'test');
  return t.manager.accounts.createApiToken('alice', 'test');
}
