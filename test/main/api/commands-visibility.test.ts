// The command routes are open to viewers, but a journal read's text (unredacted logs) and the files a plan
// writes (rendered configuration) are shown only to the roles that may ask for them; a journal's text leaves
// the store once its asker has read it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Credentials } from '../../../main/api/router';
import type { Receipt } from '../../../main/wire/protocol';
import type { CommandView } from '../../../main/api/contract/commands';

type PlanCommand = CommandView & { args: { tasks: Record<string, unknown>[] } };
import { testManager, type TestManager } from '../../support/manager';

const SECRET_LOG = 'Dec 05 login ok for user=alice password=hunter2';
const CONFIG = 'listen-client-urls: http://10.0.0.1:2379\n';

let t: TestManager;
let viewer: Credentials;
let operator: Credentials;
let hostId: string;

beforeAll(async () => {
  t = testManager();
  viewer = await t.login('vera', 'viewer');
  operator = await t.login('otto', 'operator');
  const c = t.manager.clusters.create({ name: 'logs', kind: 'hosts' }, 'test');
  hostId = t.manager.hosts.add(c.id, { name: 'l-0', address: '198.18.9.30' }, 'test').id;
});
afterAll(() => t?.close());

const answer = (commandId: string, result: unknown): Receipt => ({
  command_id: commandId,
  status: 'succeeded',
  result,
  executed_at: new Date().toISOString(),
  replica: 'host',
});
const agent = `agent:host:x`;

describe('a journal read', () => {
  let id: string;
  beforeAll(() => {
    id = t.manager.hostCommands.issueJournalTail(hostId, 'navin-etcd.service', 50, 'test').id;
    t.manager.hostCommands.recordReceipt(hostId, answer(id, { text: SECRET_LOG }), agent);
  });

  test('a viewer gets it without its result, and is told the result is withheld', async () => {
    const one = await t.call('GET', `/api/v1/commands/${id}`, undefined, viewer);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id, op: 'journal.tail', state: 'succeeded', result: null, withheld: ['result'] });
    const list = await t.call('GET', '/api/v1/commands', undefined, viewer);
    expect(JSON.stringify(list.body)).not.toContain('hunter2');
    const host = await t.call('GET', `/api/v1/hosts/${hostId}/commands`, undefined, viewer);
    expect(host.status).toBe(200);
    expect(JSON.stringify(host.body)).not.toContain('hunter2');
  });

  test('an operator, who may read journals, gets its text', async () => {
    const one = await t.call('GET', `/api/v1/commands/${id}`, undefined, operator);
    expect(one.body).toMatchObject({ id, result: { text: SECRET_LOG } });
    expect((one.body as CommandView).withheld).toBeUndefined();
  });

  test('the receipt stored for it holds no text', () => {
    expect(JSON.stringify(t.manager.store.commands.receipts(id))).not.toContain('hunter2');
  });
});

test('a viewer sees a plan without the contents of the files it writes (their sha256 kept); an operator whole', async () => {
  const plan = t.manager.hostCommands.issuePlan(
    hostId,
    { tasks: [{ id: 'conf', kind: 'file.write', path: '/etc/navin/etcd/etcd.yaml', content: CONFIG }] },
    'test',
  );
  const seen = (await t.call('GET', `/api/v1/commands/${plan.id}`, undefined, viewer)).body as PlanCommand;
  expect(seen.withheld).toEqual(['contents']);
  expect(seen.args.tasks[0]).toMatchObject({ id: 'conf', path: '/etc/navin/etcd/etcd.yaml', sha256: expect.any(String) });
  expect(JSON.stringify(seen)).not.toContain('listen-client-urls');
  const whole = (await t.call('GET', `/api/v1/commands/${plan.id}`, undefined, operator)).body as PlanCommand;
  expect(whole.args.tasks[0]!.content).toBe(CONFIG);
});

describe('readJournals hands the text to its asker, then drops it from the store', () => {
  /** Plays the host's agent: answers each journal read as it is queued, or never. */
  function answering(text: string): () => void {
    const timer = setInterval(() => {
      for (const c of t.manager.store.hosts.listCommands(hostId, 20))
        if (c.op === 'journal.tail' && c.state === 'queued') t.manager.hostCommands.recordReceipt(hostId, answer(c.id, { text }), agent);
    }, 20);
    return () => clearInterval(timer);
  }

  test('an answered read: the asker gets the text, the store keeps neither it nor the receipt body', async () => {
    const stop = answering(SECRET_LOG);
    try {
      const [read] = await t.manager.hostCommands.readJournals([{ hostId, unit: 'navin-nats.service' }], 50, 'test', 5_000);
      expect(read).toMatchObject({ state: 'succeeded', text: SECRET_LOG });
    } finally {
      stop();
    }
    const last = t.manager.store.hosts.listCommands(hostId, 1)[0]!;
    const stored = t.manager.store.commands.get(last.id)!;
    expect(stored).toMatchObject({ op: 'journal.tail', state: 'succeeded', result: { text_dropped: true } });
    expect(JSON.stringify(t.manager.store.commands.receipts(last.id))).not.toContain('hunter2');
    const operatorView = await t.call('GET', `/api/v1/commands/${last.id}`, undefined, operator);
    expect(JSON.stringify(operatorView.body)).not.toContain('hunter2');
  });

  test('a read answered after its asker stopped waiting stores no text', async () => {
    const [read] = await t.manager.hostCommands.readJournals([{ hostId, unit: 'navin-nats.service' }], 50, 'test', 200);
    expect(read!.state).toBe('unanswered');
    const late = t.manager.store.hosts.listCommands(hostId, 1)[0]!;
    t.manager.hostCommands.recordReceipt(hostId, answer(late.id, { text: SECRET_LOG }), agent);
    const stored = t.manager.store.commands.get(late.id)!;
    expect(stored.state).toBe('succeeded');
    expect(JSON.stringify(stored)).not.toContain('hunter2');
    expect(JSON.stringify(t.manager.store.commands.receipts(late.id))).not.toContain('hunter2');
  });
});
