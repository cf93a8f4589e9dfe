// The console API and the agent gateway route through one table (core/http/route-table.ts): the gateway's routes
// are the wire's paths, each for the certificate of its agent, and the console answers its misses from it.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { GATEWAY_ROUTES, agentOfPath } from '../../../../main/core/gateway/gateway-routes';
import { RouteTable } from '../../../../main/core/http/route-table';
import { GATEWAY_PATHS } from '../../../../main/wire/protocol';
import { NODE_AGENT_PATHS } from '../../../../main/wire/node-agent';
import { testManager, type TestManager } from '../../../support/manager';

let t: TestManager;
beforeAll(() => {
  t = testManager();
});
afterAll(() => t?.close());

test("the gateway's routes are the wire's paths, each for its agent's certificate", () => {
  expect(GATEWAY_ROUTES).toBeInstanceOf(RouteTable);
  const routes = GATEWAY_ROUTES.list().map(({ method, pattern, agent }) => `${agent} ${method} ${pattern}`);
  expect(routes.sort()).toEqual(
    [
      `cluster GET ${GATEWAY_PATHS.commands}`,
      `cluster POST ${GATEWAY_PATHS.report}`,
      `cluster POST ${GATEWAY_PATHS.receipts}`,
      `cluster POST ${GATEWAY_PATHS.certificate}`,
      `node GET ${NODE_AGENT_PATHS.commands}`,
      `node POST ${NODE_AGENT_PATHS.report}`,
      `node POST ${NODE_AGENT_PATHS.receipts}`,
      `node POST ${NODE_AGENT_PATHS.progress}`,
      `node POST ${NODE_AGENT_PATHS.certificate}`,
    ].sort(),
  );
  // A path no route has is judged by the same rule as the routes: a node agent's under its prefix.
  for (const r of GATEWAY_ROUTES.list()) expect(agentOfPath(r.pattern), r.pattern).toBe(r.agent);
  for (const r of GATEWAY_ROUTES.list()) expect(r.body === undefined, r.pattern).toBe(r.method === 'GET');
});

test('the gateway answers a known path with a wrong method not_found, as agents have always been answered', () => {
  expect(() => GATEWAY_ROUTES.match('PUT', GATEWAY_PATHS.report)).toThrow(`no gateway route PUT ${GATEWAY_PATHS.report}`);
  expect(GATEWAY_ROUTES.find('PUT', GATEWAY_PATHS.report)).toEqual({ route: undefined, pathKnown: true });
});

test("the console API answers its misses through the table, in the console's words", async () => {
  const missing = await t.call('GET', '/api/v1/nothing-here');
  expect([missing.status, missing.body]).toEqual([404, { error: { code: 'not_found', message: 'no API route /api/v1/nothing-here' } }]);
  const wrong = await t.call('PATCH', '/api/v1/health');
  expect([wrong.status, wrong.body]).toEqual([
    405,
    { error: { code: 'method_not_allowed', message: 'PATCH is not allowed on /api/v1/health' } },
  ]);
});
