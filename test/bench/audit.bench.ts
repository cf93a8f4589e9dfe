// Audit appends per second: one row per transaction and many rows per transaction, against bare inserts of
// the same rows (no hash chain) — the cost of tamper evidence.
import { bench, describe } from 'vitest';
import { join } from 'node:path';
import { Store } from '../../main/core/store/store';
import { ManualClock } from '../support/clock';
import { tempDir } from '../support/temp-dir';

const dir = tempDir('navin-bench-');
const store = Store.open(join(dir.path, 'bench.db'), new ManualClock());
store.db.exec(
  'CREATE TABLE bare_log (seq INTEGER PRIMARY KEY, at TEXT, actor TEXT, action TEXT, cluster_id TEXT, target TEXT, details TEXT)',
);
const bare = store.db.prepare('INSERT INTO bare_log (at, actor, action, cluster_id, target, details) VALUES (?, ?, ?, ?, ?, ?)');
const entry = {
  actor: 'alice',
  action: 'cluster.update',
  cluster_id: 'c-0001',
  target: 'edge-paris-1',
  details: { before: { description: 'a' }, after: { description: 'b' } },
};
const BATCH = 100;

describe('audit log, one row per transaction', () => {
  bench('hash-chained append', () => {
    store.tx(() => store.audit.append(entry));
  });
  bench('bare insert (baseline)', () => {
    store.tx(() =>
      bare.run(new Date().toISOString(), entry.actor, entry.action, entry.cluster_id, entry.target, JSON.stringify(entry.details)),
    );
  });
});

describe(`audit log, ${BATCH} rows per transaction`, () => {
  bench('hash-chained append', () => {
    store.tx(() => {
      for (let i = 0; i < BATCH; i++) store.audit.append(entry);
    });
  });
  bench('bare insert (baseline)', () => {
    store.tx(() => {
      for (let i = 0; i < BATCH; i++)
        bare.run(new Date().toISOString(), entry.actor, entry.action, entry.cluster_id, entry.target, JSON.stringify(entry.details));
    });
  });
});
