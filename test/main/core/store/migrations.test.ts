import { afterEach, describe, expect, test } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
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
        version: 99,
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
});
