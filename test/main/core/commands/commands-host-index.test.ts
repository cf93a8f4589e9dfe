// Migration 15: the host index of commands holds host commands only, so a cluster agent's command no longer
// writes its page at each of its commits, and every query by host still searches it.
import { afterAll, expect, test } from 'vitest';
import { testManager } from '../../../support/manager';

const t = testManager();
afterAll(() => t.close());
const db = t.manager.store.db;

test("a cluster agent's commands have no entry in commands_host; a host's commands have theirs", () => {
  const k8s = t.manager.clusters.create({ name: 'k8s-index' }, 'test');
  const hostsCluster = t.manager.clusters.create({ name: 'hosts-index', kind: 'hosts' }, 'test');
  const host = t.manager.hosts.add(hostsCluster.id, { name: 'i-0', address: '198.18.9.20' }, 'test');
  for (let i = 0; i < 5; i++) t.manager.commands.issue(k8s.id, 'inventory.report', {}, 'test');
  t.manager.hostCommands.issueDriftScan(host.id, 'test');
  t.manager.hostCommands.issueDriftScan(host.id, 'test');
  const cells = db.prepare("SELECT sum(ncell) AS n FROM dbstat WHERE name = 'commands_host' AND pagetype = 'leaf'").get() as { n: number };
  expect(cells.n).toBe(2);
});

test('the queries by host (bound host id) still search commands_host', () => {
  const queries: [string, unknown[]][] = [
    [
      "SELECT * FROM commands WHERE host_id = ? AND state IN ('queued', 'delivered') AND not_after > ? ORDER BY created_at, id LIMIT 100",
      ['h', 'x'],
    ],
    ["SELECT min(delivered_at) AS t FROM commands WHERE host_id = ? AND state = 'delivered'", ['h']],
    ['SELECT * FROM commands WHERE host_id = ? ORDER BY created_at DESC, id LIMIT ?', ['h', 5]],
  ];
  const plans = queries.map(([q, args]) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${q}`).all(...args) as { detail: string }[]).map((r) => r.detail).join(' | '),
  );
  for (const plan of plans) expect(plan).toMatch(/USING (COVERING )?INDEX commands_host/);
});
