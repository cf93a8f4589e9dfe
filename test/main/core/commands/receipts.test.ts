// Receipts are judged and recorded in one transaction: a receipt for a command of this cluster closes it once and
// is audited; one for an unknown command, another cluster's or a host's is refused, audited, and stores nothing.
import { afterEach, expect, test } from 'vitest';
import { ForbiddenReceiptError } from '../../../../main/core/commands/commands';
import { testManager, type TestManager } from '../../../support/manager';

let tm: TestManager | undefined;
afterEach(() => tm?.close());

const receipt = (command_id: string) => ({ command_id, status: 'succeeded' as const, executed_at: '2026-12-04T10:00:00Z', replica: 'r1' });

test('a receipt closes its command once, with one audit row', () => {
  tm = testManager();
  const m = tm.manager;
  const a = m.clusters.create({ name: 'rcpt-a' }, 'alice').id;
  const cmd = m.commands.issue(a, 'inventory.report', {}, 'alice');
  expect(m.commands.recordReceipt(a, receipt(cmd.id), `agent:${a}`)).toEqual({ changed: true });
  expect(m.commands.recordReceipt(a, { ...receipt(cmd.id), status: 'failed' }, `agent:${a}`)).toEqual({ changed: false });
  expect(m.commands.get(cmd.id)).toMatchObject({ state: 'succeeded' });
  expect(m.tables.commands.receipts(cmd.id).map((r) => r.status)).toEqual(['succeeded', 'failed']);
  expect(m.store.audit.list({ action: 'command.completed' }).map((r) => r.target)).toEqual([cmd.id]);
  expect(m.store.audit.verify()).toMatchObject({ ok: true });
});

test('a receipt for an unknown command or for another cluster is refused and audited, and stores nothing', () => {
  tm = testManager();
  const m = tm.manager;
  const a = m.clusters.create({ name: 'rcpt-a' }, 'alice').id;
  const b = m.clusters.create({ name: 'rcpt-b' }, 'alice').id;
  const ofB = m.commands.issue(b, 'inventory.report', {}, 'alice');
  expect(() => m.commands.recordReceipt(a, receipt('no-such-command'), `agent:${a}`)).toThrow(ForbiddenReceiptError);
  expect(() => m.commands.recordReceipt(a, receipt(ofB.id), `agent:${a}`)).toThrow(ForbiddenReceiptError);
  expect(m.tables.commands.receipts(ofB.id)).toEqual([]);
  expect(m.commands.get(ofB.id).state).toBe('queued');
  const refusals = m.store.audit.list({ action: 'gateway.receipt_refused' }).reverse();
  expect(refusals.map((r) => [r.cluster_id, r.target, r.details])).toEqual([
    [a, 'no-such-command', { reason: 'unknown_command', command_cluster: null }],
    [a, ofB.id, { reason: 'other_cluster', command_cluster: b }],
  ]);
  expect(m.store.audit.verify()).toMatchObject({ ok: true });
});
