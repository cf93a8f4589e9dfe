// Audit appends per second: one row per transaction and many rows per transaction, against bare inserts of
// the same rows (no hash chain) — the cost of tamper evidence. Then the same cases interleaved (NAVIN_BENCH_PAIRS
// pairs, default 600) and the WAL pages each commit writes.
import { afterAll, bench, describe } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../main/core/store/store';
import { ManualClock } from '../support/clock';
import { grownWal } from '../support/grown-wal';
import { tempDir } from '../support/temp-dir';

const dir = tempDir('navin-bench-');
const store = Store.open(join(dir.path, 'bench.db'), new ManualClock());
store.db.exec(
  'CREATE TABLE bare_log (seq INTEGER PRIMARY KEY, at TEXT, actor TEXT, action TEXT, cluster_id TEXT, target TEXT, details TEXT)',
);
grownWal(store.db);
const bare = store.db.prepare('INSERT INTO bare_log (at, actor, action, cluster_id, target, details) VALUES (?, ?, ?, ?, ?, ?)');
const entry = {
  actor: 'alice',
  action: 'cluster.update',
  cluster_id: 'c-0001',
  target: 'edge-paris-1',
  details: { before: { description: 'a' }, after: { description: 'b' } },
};
const BATCH = 100;

const bareRow = () =>
  bare.run(new Date().toISOString(), entry.actor, entry.action, entry.cluster_id, entry.target, JSON.stringify(entry.details));
const cases = {
  one: {
    chained: (): void => void store.tx(() => store.audit.append(entry)),
    bare: (): void => void store.tx(bareRow),
  },
  batch: {
    chained: () =>
      store.tx(() => {
        for (let i = 0; i < BATCH; i++) store.audit.append(entry);
      }),
    bare: () =>
      store.tx(() => {
        for (let i = 0; i < BATCH; i++) bareRow();
      }),
  },
};

describe('audit log, one row per transaction', () => {
  bench('hash-chained append', cases.one.chained);
  bench('bare insert (baseline)', cases.one.bare);
});

describe(`audit log, ${BATCH} rows per transaction`, () => {
  bench('hash-chained append', cases.batch.chained);
  bench('bare insert (baseline)', cases.batch.bare);
});

/** The WAL pages one call of fn commits, on average: automatic checkpoints held back while counting. */
function walPages(fn: () => void, n = 20): number {
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.db.pragma('wal_autocheckpoint = 0');
  try {
    for (let i = 0; i < n; i++) fn();
    return (statSync(`${store.db.name}-wal`).size - 32) / ((store.db.pragma('page_size', { simple: true }) as number) + 24) / n;
  } finally {
    store.db.pragma('wal_autocheckpoint = 1000');
  }
}

afterAll(() => {
  // The runs above are one after the other, so a burst of another job's disk writes lands on one side only and
  // moves the ratio (fsync dominates the one-row case). Interleaved, each chained transaction is followed by a
  // bare one, and both meet the same disk.
  const pairs = Number(process.env.NAVIN_BENCH_PAIRS ?? 600);
  const lines: string[] = [];
  for (const [name, c, n] of [
    ['one row per transaction', cases.one, pairs],
    [`${BATCH} rows per transaction`, cases.batch, Math.max(1, Math.round(pairs / 10))],
  ] as const) {
    const took: { chained: number[]; bare: number[] } = { chained: [], bare: [] };
    for (let i = 0; i < n; i++)
      for (const side of ['chained', 'bare'] as const) {
        const start = process.hrtime.bigint();
        c[side]();
        took[side].push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const pct = (f: (xs: number[]) => number) => `${((100 * f(took.bare)) / f(took.chained)).toFixed(0)} %`;
    lines.push(
      `${name}, ${n} interleaved pairs: chained median ${median(took.chained).toFixed(3)} ms, mean ${mean(took.chained).toFixed(3)} ms; ` +
        `bare median ${median(took.bare).toFixed(3)} ms, mean ${mean(took.bare).toFixed(3)} ms; chain at ${pct(median)} of bare (medians), ${pct(mean)} (means); ` +
        `WAL pages per commit: chained ${walPages(c.chained).toFixed(1)}, bare ${walPages(c.bare).toFixed(1)}`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  store.close();
  dir.remove();
});
