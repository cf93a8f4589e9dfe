// An agent's contact is announced by the clusters domain that records it, whoever carries it in: the gateway is a
// transport and emits no agent.seen, host.changed nor cluster.changed of its own.
import { afterEach, expect, test } from 'vitest';
import type { CoreEvent } from '../../../../main/core/events';
import { AgentContacts } from '../../../../main/core/clusters/agent-contacts';
import { testManager, type TestManager } from '../../../support/manager';
import { ManualClock } from '../../../support/clock';

let tm: TestManager | undefined;
afterEach(() => tm?.close());

function setUp(): { m: TestManager['manager']; clock: ManualClock; contacts: AgentContacts; seen: CoreEvent[] } {
  const clock = new ManualClock(Date.parse('2026-12-05T10:00:00Z'));
  tm = testManager({ clock });
  const m = tm.manager;
  const contacts = new AgentContacts(m.store, m.tables, m.clock, m.events);
  const seen: CoreEvent[] = [];
  m.events.subscribe((e) => seen.push(e));
  return { m, clock, contacts, seen };
}

test("a cluster agent's contact records its status and emits agent.seen at every contact, the write at most once a second", () => {
  const { m, clock, contacts, seen } = setUp();
  const c = m.clusters.create({ name: 'seen-a' }, 'alice').id;
  seen.length = 0;
  const sighting = { agent_version: '1.2.0', leader_replica: 'r1', certificate_serial: 'ab12' };
  const first = { cluster_id: c, last_seen: '2026-12-05T10:00:00.000Z', ...sighting };
  contacts.clusterAgentSeen(c, sighting);
  expect(m.tables.commands.agentStatus(c)).toEqual(first);
  clock.advance(500);
  contacts.clusterAgentSeen(c, sighting);
  expect(m.tables.commands.agentStatus(c)).toEqual(first);
  clock.advance(500);
  contacts.clusterAgentSeen(c, sighting);
  expect(m.tables.commands.agentStatus(c)).toEqual({ ...first, last_seen: '2026-12-05T10:00:01.000Z' });
  expect(seen).toEqual(Array.from({ length: 3 }, () => ({ type: 'agent.seen', data: { cluster_id: c } })));
});

test("a node agent's contact records its host's last sighting and emits host.changed and agent.seen with the host", () => {
  const { m, contacts, seen } = setUp();
  const c = m.clusters.create({ name: 'seen-hosts', kind: 'hosts' }, 'alice').id;
  const h = m.hosts.add(c, { name: 'n-0', address: '198.18.9.40' }, 'alice').id;
  seen.length = 0;
  contacts.hostAgentSeen({ id: h, cluster_id: c }, { agent_version: '0.9.0', certificate_serial: 'cd34' });
  expect(m.tables.hosts.get(h)).toMatchObject({
    agent_version: '0.9.0',
    certificate_serial: 'cd34',
    last_seen: '2026-12-05T10:00:00.000Z',
  });
  expect(seen).toEqual([
    { type: 'host.changed', data: { id: h, cluster_id: c } },
    { type: 'agent.seen', data: { cluster_id: c, host_id: h } },
  ]);
});

test("a cluster agent's inventory is stored as the latest snapshot with its observed components, and emits cluster.changed", () => {
  const { m, contacts, seen } = setUp();
  const c = m.clusters.create({ name: 'seen-inv' }, 'alice').id;
  seen.length = 0;
  contacts.inventoryReported(c, { kubernetes_version: 'v1.30.2', nodes: [] }, { opa: { spec: {}, status: null } });
  expect(m.tables.clusterAccess.latestAgentSnapshot(c)?.data).toEqual({
    kubernetes_version: 'v1.30.2',
    nodes: [],
    observed_components: { opa: { spec: {}, status: null } },
  });
  contacts.inventoryReported(c, { kubernetes_version: 'v1.30.3' }, undefined);
  expect(m.tables.clusterAccess.latestAgentSnapshot(c)?.data).toEqual({ kubernetes_version: 'v1.30.3', observed_components: null });
  expect(seen).toEqual([
    { type: 'cluster.changed', data: { id: c } },
    { type: 'cluster.changed', data: { id: c } },
  ]);
});
