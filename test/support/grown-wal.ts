// Benches start from a WAL file grown to its working size, as a running store's is: while the file grows, every
// fsync also writes its new size (the same one-row commit at synchronous=FULL took 1.7x as long on a fresh WAL as
// on a grown one), and a case that ran first on a fresh file paid that alone.
import type Database from 'better-sqlite3';

/** Commits pages of scratch data (one commit, one fsync), then checkpoints without truncating the WAL. */
export function grownWal(db: Database.Database, pages = 1100): void {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.exec('CREATE TABLE bench_wal_scratch (b BLOB)');
  const insert = db.prepare('INSERT INTO bench_wal_scratch (b) VALUES (zeroblob(?))');
  db.transaction(() => {
    for (let i = 0; i < pages; i++) insert.run(pageSize - 100);
  })();
  db.exec('DROP TABLE bench_wal_scratch');
  db.pragma('wal_checkpoint(RESTART)');
}
