// A drift scan takes each host's answer item by item: an item that is not one (an agent's bug) is left out
// rather than failing the whole scan, and the well-formed items beside it are recorded.
import { expect, onTestFinished, test, vi } from 'vitest';
import { testManager } from '../../../support/manager';

test('malformed items in a drift answer are left out and the rest is recorded', async () => {
  const t = testManager();
  onTestFinished(() => t.close());
  const c = t.manager.clusters.create({ name: 'drifting', kind: 'hosts' }, 'test');
  const h = t.manager.hosts.add(c.id, { name: 'd-0', address: '198.18.9.30' }, 'test');
  const issued: string[] = [];
  const issue = t.manager.hostCommands.issueDriftScan.bind(t.manager.hostCommands);
  vi.spyOn(t.manager.hostCommands, 'issueDriftScan').mockImplementation((hostId, actor) => {
    const view = issue(hostId, actor);
    issued.push(view.id);
    return view;
  });
  const scan = t.manager.drift.scan(c.id, 'test', 5000);
  const item = {
    path: '/etc/navin/nats/nats.conf',
    kind: 'file',
    state: 'modified',
    expected_sha256: 'a'.repeat(64),
    observed_sha256: 'b'.repeat(64),
    command_id: issued[0],
  };
  const items = [
    null,
    { ...item, path: {} },
    { ...item, path: '/etc/navin/x', expected_sha256: undefined },
    { ...item, state: 'gone' },
    item,
  ];
  t.manager.hostCommands.recordReceipt(
    h.id,
    {
      command_id: issued[0]!,
      status: 'succeeded',
      result: { scanned_at: new Date().toISOString(), items },
      executed_at: new Date().toISOString(),
      replica: 'd-0',
    },
    `agent:host:${h.id}`,
  );
  const view = await scan;
  expect(view.scanned).toEqual({ hosts: ['d-0'], unanswered: [] });
  expect(view.findings.map((f) => [f.path, f.state])).toEqual([['/etc/navin/nats/nats.conf', 'modified']]);
});
