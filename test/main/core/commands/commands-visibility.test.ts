// The command routes are open to viewers, but a journal read's text (unredacted logs) and the files a plan
// writes (rendered configuration) are shown only to the roles that may ask for them; a journal's text leaves
// the store once its asker has read it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Credentials } from '../../../../main/core/http/router';
import type { Receipt } from '../../../../main/wire/protocol';
import type { PlanTask } from '../../../../main/wire/plan';
import type { CommandView } from '../../../../main/contract/commands';

type PlanCommand = CommandView & { args: { tasks: Record<string, unknown>[] } };
import { testManager, type TestManager } from '../../../support/manager';

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
    expect(JSON.stringify(t.manager.tables.commands.receipts(id))).not.toContain('hunter2');
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
      for (const c of t.manager.tables.hosts.listCommands(hostId, 20))
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
    const last = t.manager.tables.hosts.listCommands(hostId, 1)[0]!;
    const stored = t.manager.tables.commands.get(last.id)!;
    expect(stored).toMatchObject({ op: 'journal.tail', state: 'succeeded', result: { text_dropped: true } });
    expect(JSON.stringify(t.manager.tables.commands.receipts(last.id))).not.toContain('hunter2');
    const operatorView = await t.call('GET', `/api/v1/commands/${last.id}`, undefined, operator);
    expect(JSON.stringify(operatorView.body)).not.toContain('hunter2');
  });

  test('a read answered after its asker stopped waiting stores no text', async () => {
    const [read] = await t.manager.hostCommands.readJournals([{ hostId, unit: 'navin-nats.service' }], 50, 'test', 200);
    expect(read!.state).toBe('unanswered');
    const late = t.manager.tables.hosts.listCommands(hostId, 1)[0]!;
    t.manager.hostCommands.recordReceipt(hostId, answer(late.id, { text: SECRET_LOG }), agent);
    const stored = t.manager.tables.commands.get(late.id)!;
    expect(stored.state).toBe('succeeded');
    expect(JSON.stringify(stored)).not.toContain('hunter2');
    expect(JSON.stringify(t.manager.tables.commands.receipts(late.id))).not.toContain('hunter2');
  });
});

describe('a plan that runs programs (a backup tool)', () => {
  const PRINTED = 'snapshot saved; token=s3cr3t-from-stdout';
  const FAILED = 'tar failed (2): tar: /var/lib/navin/nats: password=from-stderr';
  let id: string;
  beforeAll(() => {
    const argv = ['tar', 'czf', '/var/backups/navin/n.tgz', '/var/lib/navin/nats'];
    id = t.manager.hostCommands.issuePlan(
      hostId,
      {
        tasks: [
          { id: 'snapshot', kind: 'command.run', argv },
          { id: 'pack', kind: 'command.run', argv },
        ],
      },
      'test',
    ).id;
    const result = {
      tasks: [
        { index: 0, id: 'snapshot', kind: 'command.run', status: 'succeeded', output: { argv, exit_code: 0, stdout: PRINTED, stderr: '' } },
        {
          index: 1,
          id: 'pack',
          kind: 'command.run',
          status: 'failed',
          code: 'command_failed',
          message: FAILED,
          output: { argv, exit_code: 2, stderr: FAILED },
        },
      ],
      total: 2,
      succeeded: 1,
      failed_task: 'pack',
    };
    t.manager.hostCommands.recordReceipt(hostId, { ...answer(id, result), status: 'failed', code: 'command_failed' }, agent);
  });

  test('a viewer follows it task by task without what the programs printed, and is told so', async () => {
    const seen = await t.call('GET', `/api/v1/commands/${id}/plan`, undefined, viewer);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      command_id: id,
      failed_task: 'pack',
      withheld: ['output'],
      tasks: [
        { id: 'snapshot', status: 'succeeded', output: null, message: null },
        { id: 'pack', status: 'failed', code: 'command_failed', output: null, message: null },
      ],
    });
    expect(JSON.stringify(seen.body)).not.toMatch(/s3cr3t|from-stderr/);
  });

  test('the command itself shows a viewer neither (its result holds the same outcomes)', async () => {
    const one = await t.call('GET', `/api/v1/commands/${id}`, undefined, viewer);
    expect((one.body as CommandView).withheld).toEqual(['contents', 'output']);
    expect((one.body as CommandView).result).toMatchObject({
      failed_task: 'pack',
      tasks: [
        { id: 'snapshot', output: null, message: null },
        { id: 'pack', code: 'command_failed', output: null, message: null },
      ],
    });
    const list = await t.call('GET', '/api/v1/commands', undefined, viewer);
    expect(JSON.stringify([one.body, list.body])).not.toMatch(/s3cr3t|from-stderr/);
  });

  test('an operator, who may run a backup, sees the output and the failure message', async () => {
    const whole = await t.call('GET', `/api/v1/commands/${id}/plan`, undefined, operator);
    expect(whole.body).toMatchObject({
      tasks: [{ output: { stdout: PRINTED } }, { message: FAILED, output: { stderr: FAILED } }],
    });
    expect((whole.body as { withheld?: unknown }).withheld).toBeUndefined();
    const one = await t.call('GET', `/api/v1/commands/${id}`, undefined, operator);
    expect(JSON.stringify(one.body)).toContain('s3cr3t');
  });
});

test('a viewer reads a backup operation without what its programs printed, its failure message included; an operator whole', async () => {
  const argv = ['tar', 'czf', '/var/backups/navin/o.tgz', '/var/lib/navin/nats'];
  const FAILED = 'tar failed (2): password=from-operation-stderr';
  const plan = t.manager.hostCommands.issuePlan(hostId, { tasks: [{ id: 'pack', kind: 'command.run', argv }] }, 'test');
  const result = {
    tasks: [
      {
        index: 0,
        id: 'pack',
        kind: 'command.run',
        status: 'failed',
        code: 'command_failed',
        message: FAILED,
        output: { argv, stderr: FAILED },
      },
    ],
    total: 1,
    succeeded: 0,
    failed_task: 'pack',
  };
  t.manager.hostCommands.recordReceipt(hostId, { ...answer(plan.id, result), status: 'failed', code: 'command_failed' }, agent);
  const clusterId = t.manager.hosts.get(hostId).cluster_id;
  const at = new Date().toISOString();
  const id = 'op-backup-visibility';
  t.manager.tables.services.insertOperation({
    id,
    cluster_id: clusterId,
    service: 'nats',
    action: 'backup',
    version: '2.9.10-1',
    phases: [{ name: 'backup', plans: [{ host_id: hostId, args: { tasks: [{ id: 'pack', kind: 'command.run', argv }] } }] }],
    requested_by: 'test',
    created_at: at,
  });
  t.manager.tables.services.setPhase(id, 0, [{ phase: 0, host_id: hostId, command_id: plan.id }]);
  t.manager.tables.services.finishOperation(id, 'failed', 'command_failed', `task pack failed on l-0: ${FAILED}`, at);

  const seen = await t.call('GET', `/api/v1/operations/${id}`, undefined, viewer);
  expect(seen.status).toBe(200);
  expect(seen.body).toMatchObject({ id, state: 'failed', code: 'command_failed', message: null });
  expect((seen.body as { phases: { plans: unknown[] }[] }).phases[0]!.plans[0]).toMatchObject({
    withheld: ['output'],
    tasks: [{ id: 'pack', code: 'command_failed', output: null, message: null }],
  });
  const list = await t.call('GET', `/api/v1/clusters/${clusterId}/services/nats/operations`, undefined, viewer);
  expect(list.status).toBe(200);
  expect(JSON.stringify([seen.body, list.body])).not.toContain('from-operation-stderr');
  const whole = await t.call('GET', `/api/v1/operations/${id}`, undefined, operator);
  expect(whole.body).toMatchObject({ message: `task pack failed on l-0: ${FAILED}` });
  expect(JSON.stringify(whole.body)).toContain('from-operation-stderr');
});

describe('a backup set that failed', () => {
  const argv = ['tar', 'czf', '/var/backups/navin/s.tgz', '/var/lib/navin/nats'];
  const FAILED = 'tar failed (2): password=from-set-stderr';
  let clusterId: string;

  /** A set of one nats backup whose operation failed on the task `task` tells, the set's message quoting it. */
  function failedSet(setId: string, task: Record<string, unknown>, message: string): void {
    const planned: PlanTask =
      task.kind === 'command.run'
        ? { id: 'pack', kind: 'command.run', argv }
        : { id: 'pack', kind: 'file.remove', path: '/var/lib/navin/x' };
    const plan = t.manager.hostCommands.issuePlan(hostId, { tasks: [planned] }, 'test');
    const result = {
      tasks: [{ index: 0, id: 'pack', status: 'failed', code: 'command_failed', ...task }],
      total: 1,
      succeeded: 0,
      failed_task: 'pack',
    };
    t.manager.hostCommands.recordReceipt(hostId, { ...answer(plan.id, result), status: 'failed', code: 'command_failed' }, agent);
    clusterId = t.manager.hosts.get(hostId).cluster_id;
    const at = new Date().toISOString();
    t.manager.tables.serviceBackups.insertSet({
      id: setId,
      cluster_id: clusterId,
      services: ['nats'],
      reason: 'manual',
      requested_by: 'test',
      created_at: at,
    });
    const opId = `op-${setId}`;
    t.manager.tables.services.insertOperation({
      id: opId,
      cluster_id: clusterId,
      service: 'nats',
      action: 'backup',
      version: '2.9.10-1',
      phases: [{ name: 'backup', plans: [{ host_id: hostId, args: { tasks: [planned] } }] }],
      requested_by: 'test',
      created_at: at,
      backup_set_id: setId,
    });
    t.manager.tables.services.setPhase(opId, 0, [{ phase: 0, host_id: hostId, command_id: plan.id }]);
    t.manager.tables.services.finishOperation(opId, 'failed', 'command_failed', `task pack failed on l-0: ${message}`, at);
    // The set ends as the manager ends it on hearing that its backup operation ended.
    t.manager.events.emit('service.changed', { cluster_id: clusterId, service: 'nats', operation_id: opId });
  }

  test('a viewer reads it without its message when it quotes what the backup tool printed, and is told so; an operator whole', async () => {
    failedSet('set-printed', { kind: 'command.run', message: FAILED, output: { argv, stderr: FAILED } }, FAILED);
    const one = await t.call('GET', `/api/v1/clusters/${clusterId}/service-backups/set-printed`, undefined, viewer);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: 'set-printed', state: 'failed', code: 'command_failed', message: null, withheld: ['output'] });
    const list = await t.call('GET', `/api/v1/clusters/${clusterId}/service-backups`, undefined, viewer);
    expect(list.status).toBe(200);
    expect(JSON.stringify([one.body, list.body])).not.toContain('from-set-stderr');
    const whole = await t.call('GET', `/api/v1/clusters/${clusterId}/service-backups/set-printed`, undefined, operator);
    expect(whole.body).toMatchObject({ message: `nats: task pack failed on l-0: ${FAILED}` });
    expect((whole.body as { withheld?: unknown }).withheld).toBeUndefined();
  });

  test("the set's audit row, open to viewers, names its failed operation rather than quoting what the tool printed", async () => {
    const audit = await t.call('GET', `/api/v1/audit?action=service.backup_failed`, undefined, viewer);
    expect(audit.status).toBe(200);
    const rows = (audit.body as { items: { details: unknown }[] }).items;
    expect(rows.map((r) => r.details)).toContainEqual({
      backup_set_id: 'set-printed',
      code: 'command_failed',
      operation_id: 'op-set-printed',
    });
    expect(JSON.stringify(rows)).not.toContain('from-set-stderr');
  });

  test('a viewer keeps the message of a set whose failed task ran no program', async () => {
    failedSet('set-plain', { kind: 'file.write', message: 'disk full' }, 'disk full');
    const one = await t.call('GET', `/api/v1/clusters/${clusterId}/service-backups/set-plain`, undefined, viewer);
    expect(one.body).toMatchObject({ message: 'nats: task pack failed on l-0: disk full' });
    expect((one.body as { withheld?: unknown }).withheld).toBeUndefined();
  });
});
