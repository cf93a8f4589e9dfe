// A host's report is announced by the hosts domain that records it, whoever hands it in: the node agents' routes
// (a transport) emit no host.changed nor host.liveness of their own after a report.
import { afterEach, expect, test } from 'vitest';
import type { CoreEvent } from '../../../../main/core/events';
import type { CheckOutcome } from '../../../../main/wire/service-checks';
import { testManager, type TestManager } from '../../../support/manager';

let tm: TestManager | undefined;
afterEach(() => tm?.close());

test('a report recorded through the hosts domain emits host.changed, and host.liveness when it carries liveness', () => {
  tm = testManager();
  const m = tm.manager;
  const c = m.clusters.create({ name: 'evt-report', kind: 'hosts' }, 'alice').id;
  const h = m.hosts.add(c, { name: 'r-0', address: '198.18.9.32' }, 'alice').id;
  const seen: CoreEvent[] = [];
  m.events.subscribe((e) => seen.push(e));
  const report = { agent_version: '1', facts: {} as any, managed: { files: {}, units: {} } };
  const outcome: CheckOutcome = {
    kind: 'systemd',
    status: 'pass',
    started_at: '2026-12-05T10:00:00Z',
    duration_ms: 3,
    method: 'm',
    evidence: {},
  };
  m.hostCommands.recordReport(h, report);
  m.hostCommands.recordReport(h, report, { 'navin-etcd.service': outcome });
  expect(seen).toEqual([
    { type: 'host.changed', data: { id: h, cluster_id: c } },
    { type: 'host.changed', data: { id: h, cluster_id: c } },
    { type: 'host.liveness', data: { host_id: h, cluster_id: c, liveness: { 'navin-etcd.service': outcome } } },
  ]);
});
