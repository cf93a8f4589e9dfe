// The node agent's routes at the gateway take only what the store holds: a batch of receipts with one malformed
// is refused whole (nothing of it recorded), and a progress report's task fields are checked before the store.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Gateway } from '../../../../main/core/gateway/gateway';
import { NODE_AGENT_PATHS } from '../../../../main/wire/node-agent';
import { hostFacts } from '../../../support/host-facts';
import { httpsCall } from '../../../support/https-call';
import { startTestGateway } from '../../../support/test-gateway';
import { testManager, type TestManager } from '../../../support/manager';

let t: TestManager;
let gateway: Gateway;
let hostId: string;
let post: (path: string, body: unknown) => ReturnType<typeof httpsCall>;

beforeAll(async () => {
  t = testManager();
  ({ gateway } = await startTestGateway(t, { hosts: t.manager.hostCommands }));
  const c = t.manager.clusters.create({ name: 'routes', kind: 'hosts' }, 'test');
  hostId = t.manager.hosts.add(c.id, { name: 'r-0', address: '198.18.9.20' }, 'test').id;
  const identity = t.manager.hostIdentities.issue(hostId, { gateway_url: 'https://localhost:8462' }, 'test');
  post = (path, body) =>
    httpsCall(gateway.url, path, {
      body: JSON.stringify(body),
      ca: identity.files['ca.crt'],
      cert: identity.files['tls.crt'],
      key: identity.files['tls.key'],
      servername: 'localhost',
    });
});
afterAll(async () => {
  await gateway?.close();
  t?.close();
});

const plan = () =>
  t.manager.hostCommands.issuePlan(hostId, { tasks: [{ id: 'w', kind: 'file.write', path: '/etc/navin/x', content: 'x' }] }, 'test');
const receipt = (id: string, over: Record<string, unknown> = {}) => ({
  command_id: id,
  status: 'succeeded',
  executed_at: new Date().toISOString(),
  replica: 'r-0',
  ...over,
});

test('a batch of receipts with one malformed is refused 400 and none of it is recorded', async () => {
  const a = plan();
  const b = plan();
  for (const bad of [{ replica: [] }, { code: { a: 1 } }, { executed_at: 5 }]) {
    const r = await post(NODE_AGENT_PATHS.receipts, { receipts: [receipt(a.id), receipt(b.id, bad)] });
    expect([r.status, (r.json as { error: { code: string } }).error.code], JSON.stringify(bad)).toEqual([400, 'bad_request']);
  }
  expect(t.manager.tables.commands.get(a.id)?.state).not.toBe('succeeded');
  const ok = await post(NODE_AGENT_PATHS.receipts, { receipts: [receipt(a.id), receipt(b.id)] });
  expect([ok.status, ok.json]).toEqual([200, { accepted: [a.id, b.id] }]);
});

test("a progress report whose task fields are not the table's types is refused 400", async () => {
  const p = plan();
  const task = { index: 0, id: 'w', kind: 'file.write', status: 'running', started_at: new Date().toISOString() };
  for (const bad of [{ started_at: { a: 1 } }, { code: [] }, { message: 5 }, { index: -1 }, { kind: 7 }]) {
    const r = await post(NODE_AGENT_PATHS.progress, { command_id: p.id, total: 1, task: { ...task, ...bad } });
    expect(r.status, JSON.stringify(bad)).toBe(400);
  }
  expect((await post(NODE_AGENT_PATHS.progress, { command_id: p.id, total: 1, task })).status).toBe(200);
});

test("a final receipt's malformed task entries are left out and the receipt is recorded", async () => {
  const p = plan();
  const tasks = [{ index: 0, id: 'w', kind: 'file.write', status: 'succeeded', finished_at: { at: 1 } }];
  const r = await post(NODE_AGENT_PATHS.receipts, { receipts: [receipt(p.id, { result: { tasks } })] });
  expect(r.status).toBe(200);
  expect(t.manager.tables.commands.get(p.id)?.state).toBe('succeeded');
});

test('a liveness outcome whose started_at is not a time is refused 400', async () => {
  const facts = hostFacts({ hostname: 'r-0' });
  const outcome = { kind: 'tcp', status: 'pass', started_at: new Date().toISOString() };
  const report = (started_at: string) => ({
    agent_version: '1',
    facts,
    managed: { files: {}, units: {} },
    liveness: { 'navin-etcd.service': { ...outcome, started_at } },
  });
  expect((await post(NODE_AGENT_PATHS.report, report('zzzz'))).status).toBe(400);
  expect((await post(NODE_AGENT_PATHS.report, report(outcome.started_at))).status).toBe(200);
});
