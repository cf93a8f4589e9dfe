// One operation fanned out to many clusters: each command signed for its own target with its own nonce and
// audited, committed a chunk at a time; a cluster that refuses (of the other kind, or gone) is reported and
// undoes only its own writes, the others are issued.
import { afterEach, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';

let tm: TestManager | undefined;
afterEach(() => tm?.close());

test('a fan-out over chunks issues one signed, audited command per cluster and reports the ones that refuse', () => {
  tm = testManager();
  const m = tm.manager;
  const ids = Array.from({ length: 7 }, (_, i) => m.clusters.create({ name: `fan-${i}` }, 'alice').id);
  const hosts = m.clusters.create({ name: 'fan-hosts', kind: 'hosts' }, 'alice').id;
  const targets = [...ids.slice(0, 3), hosts, 'no-such-cluster', ...ids.slice(3)];
  const audited = () => m.store.audit.list({ action: 'command.inventory.report', limit: 1000 }).length;
  const auditBefore = audited();

  const progress: number[] = [];
  const out = m.commands.issueToClusters(targets, 'inventory.report', {}, 'alice', { chunk: 3, onChunk: (p) => progress.push(p.done) });
  expect(progress).toEqual([3, 6, 9]);

  expect(out.issued).toBe(7);
  expect(out.refused.map((r) => [r.cluster_id, r.code])).toEqual([
    [hosts, 'cluster_kind_mismatch'],
    ['no-such-cluster', 'not_found'],
  ]);
  const nonces = new Set<string>();
  for (const id of ids) {
    const [c] = m.tables.commands.list({ cluster_id: id });
    const envelope = c!.envelope as { payload: { target: string; nonce: string }; signature: string };
    expect(envelope.payload.target).toBe(id);
    expect(envelope.signature).toMatch(/\S/);
    nonces.add(envelope.payload.nonce);
  }
  expect(nonces.size).toBe(7);
  expect(audited() - auditBefore).toBe(7);
  // The refused clusters left nothing behind.
  expect(m.tables.commands.list({ cluster_id: hosts })).toEqual([]);
  expect(m.store.audit.verify().ok).toBe(true);
});
