import { afterEach, describe, expect, test } from 'vitest';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, schemaVersion, MigrationError } from '../../../../main/core/store/database';
import { migrations } from '../../../../main/core/store/migrations';
import { tempDir } from '../../../support/temp-dir';

const tables = (file: string): string[] => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
};

describe('migrations', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  test('a fresh database gets every migration, WAL mode and a 0600 file', () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir.path, 'navin.db');
    const db = openDatabase(file);
    expect(schemaVersion(db)).toBe(migrations[migrations.length - 1]!.version);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('a migration failing half way leaves the database exactly as it was', () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir.path, 'navin.db');
    openDatabase(file).close();
    const before = tables(file);
    const broken = [
      ...migrations,
      {
        version: migrations.length + 1,
        name: 'half-way',
        sql: "CREATE TABLE added_first (x INTEGER); INSERT INTO settings VALUES ('k', 'v'); THIS IS NOT SQL;",
      },
    ];
    expect(() => openDatabase(file, broken)).toThrow(MigrationError);
    expect(tables(file)).toEqual(before);
    const db = openDatabase(file);
    expect(schemaVersion(db)).toBe(migrations[migrations.length - 1]!.version);
    expect(db.prepare('SELECT count(*) AS n FROM settings').get()).toEqual({ n: 0 });
    db.close();
  });

  test('reopening applies nothing twice', () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir.path, 'navin.db');
    openDatabase(file).close();
    const db = openDatabase(file);
    expect(schemaVersion(db)).toBe(migrations.length);
    db.close();
  });

  const refusal = (list: typeof migrations): unknown => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir.path, 'sub', 'navin.db');
    try {
      openDatabase(file, list);
    } catch (error) {
      // Refused before the database is touched: not even its folder is made.
      expect(existsSync(dirname(file))).toBe(false);
      return error;
    }
    throw new Error('the list was accepted');
  };
  const next = (name: string, version = migrations.length + 1) => ({ version, name, sql: 'CREATE TABLE x (y INTEGER);' });

  test('a list giving a version twice is refused, naming it, before the database is touched', () => {
    const twice = refusal([...migrations, next('one domain'), next('another domain')]);
    expect(twice).toMatchObject({ code: 'migration_list_invalid' });
    expect((twice as Error).message).toContain(`version ${migrations.length + 1} is given twice (one domain; another domain)`);
  });

  test('a list leaving a version out is refused, naming it, before the database is touched', () => {
    const gap = refusal([...migrations, next('too far', migrations.length + 2)]);
    expect(gap).toMatchObject({ code: 'migration_list_invalid' });
    expect((gap as Error).message).toContain(`version ${migrations.length + 1} is missing`);
    expect(refusal(migrations.filter((m) => m.version !== 1))).toMatchObject({ code: 'migration_list_invalid' });
  });

  test('the order of the list does not matter, only its versions', () => {
    const dir = tempDir();
    dirs.push(dir);
    const db = openDatabase(join(dir.path, 'navin.db'), [...migrations].reverse());
    expect(schemaVersion(db)).toBe(migrations.length);
    db.close();
  });
});
