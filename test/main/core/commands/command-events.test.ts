// A command's change is announced by the commands domain that records it, whoever hands it in: the gateway is a
// transport and emits no command.changed of its own (a service operation advances on these events).
import { afterEach, expect, test } from 'vitest';
import type { CoreEvent } from '../../../../main/core/events';
import { ForbiddenReceiptError } from '../../../../main/core/commands/commands';
import { testManager, type TestManager } from '../../../support/manager';

let tm: TestManager | undefined;
afterEach(() => tm?.close());

const receipt = (command_id: string) => ({ command_id, status: 'succeeded' as const, executed_at: '2026-12-04T10:00:00Z', replica: 'r1' });

function recorded(m: TestManager['manager']): { seen: CoreEvent[] } {
  const seen: CoreEvent[] = [];
  m.events.subscribe((e) => {
    if (e.type === 'command.changed') seen.push(e);
  });
  return { seen };
}

test('a receipt recorded through the commands domain emits command.changed for its command, a refused one emits nothing', () => {
  tm = testManager();
  const m = tm.manager;
  const a = m.clusters.create({ name: 'evt-a' }, 'alice').id;
  const cmd = m.commands.issue(a, 'inventory.report', {}, 'alice');
  const { seen } = recorded(m);
  m.commands.recordReceipt(a, receipt(cmd.id), `agent:${a}`);
  expect(seen).toEqual([{ type: 'command.changed', data: { id: cmd.id, cluster_id: a } }]);
  expect(() => m.commands.recordReceipt(a, receipt('no-such-command'), `agent:${a}`)).toThrow(ForbiddenReceiptError);
  expect(seen).toHaveLength(1);
});

test('a delivery through the commands domain emits command.changed for the cluster, an empty one nothing', () => {
  tm = testManager();
  const m = tm.manager;
  const a = m.clusters.create({ name: 'evt-b' }, 'alice').id;
  m.commands.issue(a, 'inventory.report', {}, 'alice');
  const { seen } = recorded(m);
  expect(m.commands.deliver(a, 15)).toHaveLength(1);
  expect(seen).toEqual([{ type: 'command.changed', data: { cluster_id: a } }]);
  expect(m.commands.deliver(a, 15)).toHaveLength(0);
  expect(seen).toHaveLength(1);
});

test("a host's receipt and delivery recorded through the hosts domain emit command.changed with the host, a refused receipt nothing", () => {
  tm = testManager();
  const m = tm.manager;
  const c = m.clusters.create({ name: 'evt-hosts', kind: 'hosts' }, 'alice').id;
  const hostId = m.hosts.add(c, { name: 'e-0', address: '198.18.9.31' }, 'alice').id;
  const cmd = m.hostCommands.issueJournalTail(hostId, 'navin-etcd.service', 50, 'alice');
  const { seen } = recorded(m);
  expect(m.hostCommands.deliver(hostId, 15)).toHaveLength(1);
  m.hostCommands.recordReceipt(hostId, { ...receipt(cmd.id), result: { text: 'x' } }, `agent:host:${hostId}`);
  expect(seen.map((e) => e.data)).toEqual([
    { id: undefined, cluster_id: c, host_id: hostId },
    { id: cmd.id, cluster_id: c, host_id: hostId },
  ]);
  expect(() => m.hostCommands.recordReceipt(hostId, receipt('no-such-command'), `agent:host:${hostId}`)).toThrow(ForbiddenReceiptError);
  expect(seen).toHaveLength(2);
});
