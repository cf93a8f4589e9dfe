// The schemas of the agents' request bodies hold the manager's rules: what each refuses, and that what an agent
// sends, fields unknown to the manager included, comes out as it was sent.
import { describe, expect, test } from 'vitest';
import { CLUSTER_REPORT, HOST_REPORT, PLAN_PROGRESS, RECEIPT, RECEIPT_BATCH, TASK_OUTCOME } from '../../../main/wire/agent-requests';
import { agentBody } from '../../../main/core/gateway/agent-body';
import { CoreError } from '../../../main/core/errors';
import { hostFacts } from '../../support/host-facts';

const receipt = { command_id: 'c1', status: 'succeeded', executed_at: '2026-12-05T10:00:00Z', replica: 'r1' };
const unit = {
  load_state: 'loaded',
  active_state: 'active',
  sub_state: 'running',
  main_pid: 10,
  active_since: null,
  restarts: 0,
  memory_bytes: 1,
  cpu_ns: 2,
};
const metrics = {
  at: '2026-12-05T10:00:00Z',
  source: 'host',
  cpu: { total_s: 2, idle_s: 1, cpus: 1 },
  memory: null,
  filesystem: { mount: '/', size_bytes: 10, available_bytes: 5 },
};
const outcome = { kind: 'tcp', status: 'pass', started_at: '2026-12-05T10:00:00Z' };
const report = { agent_version: '1', facts: hostFacts(), managed: { files: {}, units: {} } };
const task = { index: 0, id: 'w', kind: 'file.write', status: 'running' };

describe('receipts', () => {
  test('a receipt keeps every field it was sent with, nulls included', () => {
    const sent = { ...receipt, code: null, result: { x: 1 }, original: { status: 'failed', code: 'e', executed_at: null }, extra: [1] };
    expect(RECEIPT.parse(sent)).toEqual(sent);
  });

  test.each([
    [{ ...receipt, command_id: 7 }],
    [{ ...receipt, status: 'done' }],
    [{ ...receipt, replica: [] }],
    [{ ...receipt, code: { x: 1 } }],
    [{ ...receipt, message: 7 }],
    [{ ...receipt, original: { status: 'done' } }],
    [{ ...receipt, original: [] }],
    [[receipt]],
  ])('%j is no receipt', (bad) => {
    expect(RECEIPT.safeParse(bad).success).toBe(false);
  });

  test('a batch is a list', () => {
    expect(RECEIPT_BATCH.safeParse({ receipts: [{}] }).success).toBe(true);
    for (const bad of [{ receipts: {} }, {}, [], null]) expect(RECEIPT_BATCH.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});

test("a cluster agent's report needs an inventory object; the rest is read elsewhere", () => {
  expect(CLUSTER_REPORT.safeParse({ inventory: { nodes: [] } }).success).toBe(true);
  for (const bad of [{}, { inventory: 'x' }, { inventory: 3 }, [], 'report'])
    expect(CLUSTER_REPORT.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
});

describe("a node agent's report", () => {
  test('a full report passes as sent', () => {
    const sent = { ...report, liveness: { 'navin-etcd.service': outcome }, units: { 'navin-etcd.service': unit }, metrics };
    expect(HOST_REPORT.parse(sent)).toEqual(sent);
  });

  test.each([
    ['facts missing', { ...report, facts: undefined }],
    ['facts.cpu without cores', { ...report, facts: { ...hostFacts(), cpu: { brand: 'x', physical_cores: 1 } } }],
    [
      'a negative disk size',
      { ...report, facts: hostFacts({ disks: [{ mount: '/', fs: 'x', type: 'x', size_bytes: -1, available_bytes: 0 }] }) },
    ],
    ['a port that is no integer', { ...report, facts: { ...hostFacts(), listening_ports: [22.5] } }],
    ['a liveness time that is none', { ...report, liveness: { 'navin-etcd.service': { ...outcome, started_at: 'zzzz' } } }],
    ['the liveness of the agent itself', { ...report, liveness: { 'navin-node-agent.service': outcome } }],
    ['a unit not managed', { ...report, units: { 'sshd.service': unit } }],
    ['a unit with a negative count', { ...report, units: { 'navin-etcd.service': { ...unit, memory_bytes: -1 } } }],
    ['a unit active since no time', { ...report, units: { 'navin-etcd.service': { ...unit, active_since: 'yesterday' } } }],
    ['metrics of an unknown source', { ...report, metrics: { ...metrics, source: 'guess' } }],
    ['a CPU figure that is text', { ...report, metrics: { ...metrics, cpu: { total_s: 'many', idle_s: 1, cpus: 1 } } }],
  ])('%s is refused', (_why, bad) => {
    expect(HOST_REPORT.safeParse(bad).success).toBe(false);
  });
});

test("a task outcome holds the tasks table's types, and progress names its command", () => {
  expect(PLAN_PROGRESS.safeParse({ command_id: 'p', total: 1, task }).success).toBe(true);
  expect(PLAN_PROGRESS.safeParse({ total: 1, task }).success).toBe(false);
  for (const bad of [
    { started_at: { a: 1 } },
    { code: [] },
    { message: 5 },
    { index: -1 },
    { index: 0.5 },
    { kind: 7 },
    { status: 'pending' },
  ])
    expect(TASK_OUTCOME.safeParse({ ...task, ...bad }).success, JSON.stringify(bad)).toBe(false);
});

test("a refused body is the gateway's 400 bad_request naming the JSON path of the faulty value", () => {
  const refusal = (f: () => unknown): CoreError => {
    try {
      f();
    } catch (error) {
      if (error instanceof CoreError) return error;
      throw error;
    }
    throw new Error('not refused');
  };
  const e = refusal(() => agentBody(RECEIPT, { ...receipt, replica: [] }, ['receipts', 2]));
  expect(e.code).toBe('bad_request');
  expect(e.message).toMatch(/^receipts\[2\]\.replica: /);
  expect(refusal(() => agentBody(HOST_REPORT, { ...report, units: { 'sshd.service': unit } })).message).toBe(
    'units.sshd.service: is not a managed unit (navin-<name>.service)',
  );
  expect(refusal(() => agentBody(RECEIPT_BATCH, { receipts: 3 })).message).toBe('receipts: is a list');
});
