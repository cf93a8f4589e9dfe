// Opens the SQLite file with the settings the manager relies on (WAL, foreign keys, 0600) and brings the
// schema up to date, each migration inside its own transaction so a failure leaves the file as it was.
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { CoreError } from '../errors';
import { migrations as defaultMigrations, type Migration } from './migrations';

export type Db = Database.Database;

export class MigrationError extends CoreError {
  constructor(version: number, name: string, cause: unknown) {
    super('migration_failed', `migration ${version} (${name}) failed and was rolled back: ${String((cause as Error)?.message ?? cause)}`);
    this.name = 'MigrationError';
  }
}

export function openDatabase(file: string, list: readonly Migration[] = defaultMigrations): Db {
  const ordered = checkedMigrations(list);
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    if (!existsSync(file)) {
      // Create it empty with the right mode before SQLite writes anything into it.
      new Database(file).close();
    }
    chmodSync(file, 0o600);
  }
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // FULL: an acknowledged write (an audit row above all) survives an OS crash or a power cut, not only a
    // process crash; measured in BENCHMARKS.md (test/bench/store-durability.bench.ts).
    db.pragma('synchronous = FULL');
    migrate(db, ordered);
    cacheStatements(db);
    if (file !== ':memory:') {
      for (const extra of [`${file}-wal`, `${file}-shm`]) if (existsSync(extra)) chmodSync(extra, 0o600);
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * The migrations in the order they run, which must be 1, 2, 3 … each once: the ledger's and the domain modules'
 * share one numbering, and a version given twice or left out is a mistake of the build, refused before the file
 * is touched rather than found as a schema that differs from one installation to the next.
 */
export function checkedMigrations(list: readonly Migration[]): Migration[] {
  const ordered = [...list].sort((a, b) => a.version - b.version);
  ordered.forEach((m, i) => {
    if (m.version === i + 1) return;
    const before = ordered[i - 1];
    throw new CoreError(
      'migration_list_invalid',
      before?.version === m.version
        ? `migration version ${m.version} is given twice (${before.name}; ${m.name})`
        : `migration version ${i + 1} is missing (the next one is ${m.version}, ${m.name})`,
    );
  });
  return ordered;
}

function migrate(db: Db, ordered: readonly Migration[]): void {
  const current = schemaVersion(db);
  const pending = ordered.filter((m) => m.version > current);
  for (const m of pending) {
    const apply = db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    });
    try {
      apply();
    } catch (error) {
      throw new MigrationError(m.version, m.name, error);
    }
  }
}

/**
 * better-sqlite3 compiles a statement on every prepare(), and the tables call prepare() for each query (a
 * compile costs more than most of their queries): the compiled statements are kept by their SQL text. Bounded,
 * though this code's SQL is a few hundred fixed texts. Left out: PRAGMAs (better-sqlite3's pragma() prepares
 * with extra arguments and switches its statement to pluck mode) and any call with more than the SQL.
 */
function cacheStatements(db: Db, max = 2000): void {
  const prepare = db.prepare.bind(db) as (...args: unknown[]) => Database.Statement;
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((...args: unknown[]) => {
    const sql = args[0];
    if (args.length !== 1 || typeof sql !== 'string' || /^\s*PRAGMA/i.test(sql)) return prepare(...args);
    let stmt = cache.get(sql);
    if (!stmt) {
      if (cache.size >= max) cache.clear();
      stmt = prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  }) as Db['prepare'];
}
