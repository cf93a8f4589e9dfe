import { afterEach, describe, expect, test } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Store } from '../../../../main/core/store/store';
import { GENESIS_HASH } from '../../../../main/core/store/audit-log';
import { ManualClock } from '../../../support/clock';
import { tempDir } from '../../../support/temp-dir';

describe('audit log', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  function withRows(n: number): { file: string; store: Store } {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir.path, 'navin.db');
    const store = Store.open(file, new ManualClock());
    store.tx(() => {
      for (let i = 1; i <= n; i++)
        store.audit.append({ actor: 'alice', action: 'cluster.create', cluster_id: `c${i}`, target: `edge-${i}`, details: { i } });
    });
    return { file, store };
  }

  test('rows chain from the genesis hash and the chain verifies', () => {
    const { store } = withRows(5);
    const rows = store.audit.list({ limit: 10 }).reverse();
    expect(rows[0]!.prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
    expect(store.audit.verify()).toEqual({ ok: true, rows: 5 });
    store.close();
  });

  test('the database refuses to update or delete an audit row', () => {
    const { store } = withRows(2);
    expect(() => store.db.prepare("UPDATE audit_log SET actor = 'mallory' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => store.db.prepare('DELETE FROM audit_log WHERE seq = 1').run()).toThrow(/append-only/);
    store.close();
  });

  test('a row altered directly in the SQLite file is named by verify', () => {
    const { file, store } = withRows(6);
    store.close();
    const raw = new Database(file);
    raw.exec('DROP TRIGGER audit_log_no_update');
    raw.prepare('UPDATE audit_log SET details = \'{"i":99}\' WHERE seq = 4').run();
    raw.close();
    const reopened = Store.open(file, new ManualClock());
    expect(reopened.audit.verify()).toMatchObject({ ok: false, first_broken_seq: 4, reason: 'content does not match its hash' });
    reopened.close();
  });

  test('a row removed from the file is named by verify', () => {
    const { file, store } = withRows(4);
    store.close();
    const raw = new Database(file);
    raw.exec('DROP TRIGGER audit_log_no_delete');
    raw.prepare('DELETE FROM audit_log WHERE seq = 2').run();
    raw.close();
    const reopened = Store.open(file, new ManualClock());
    expect(reopened.audit.verify()).toMatchObject({ ok: false, first_broken_seq: 2 });
    reopened.close();
  });

  test('search filters by actor, cluster and action', () => {
    const { store } = withRows(3);
    store.tx(() => store.audit.append({ actor: 'bob', action: 'cluster.delete', cluster_id: 'c2' }));
    expect(store.audit.list({ actor: 'bob' }).map((r) => r.action)).toEqual(['cluster.delete']);
    expect(store.audit.list({ cluster_id: 'c2' })).toHaveLength(2);
    expect(store.audit.list({ action: 'cluster.create' })).toHaveLength(3);
    store.close();
  });
  test('a row appended by another connection is chained onto, not skipped', () => {
    const { file, store } = withRows(2);
    const other = Store.open(file, new ManualClock());
    other.tx(() => other.audit.append({ actor: 'bob', action: 'cluster.update', cluster_id: 'c1' }));
    store.tx(() => store.audit.append({ actor: 'alice', action: 'cluster.update', cluster_id: 'c2' }));
    other.tx(() => other.audit.append({ actor: 'bob', action: 'cluster.delete', cluster_id: 'c1' }));
    store.audit.append({ actor: 'alice', action: 'cluster.delete', cluster_id: 'c2' });
    expect(store.audit.lastSeq()).toBe(6);
    expect(store.audit.verify()).toEqual({ ok: true, rows: 6 });
    other.close();
    store.close();
  });

  test('a row whose transaction rolled back is not the one the next row links to', () => {
    const { store } = withRows(2);
    expect(() =>
      store.tx(() => {
        store.audit.append({ actor: 'alice', action: 'cluster.update', cluster_id: 'c1' });
        throw new Error('refused');
      }),
    ).toThrow('refused');
    store.tx(() => {
      try {
        store.tx(() => {
          store.audit.append({ actor: 'alice', action: 'cluster.update', cluster_id: 'c1' });
          throw new Error('inner refused');
        });
      } catch {
        // the inner savepoint rolled back, the outer transaction goes on
      }
      store.audit.append({ actor: 'alice', action: 'cluster.delete', cluster_id: 'c1' });
    });
    expect(store.audit.list().map((r) => [r.seq, r.action])).toEqual([
      [3, 'cluster.delete'],
      [2, 'cluster.create'],
      [1, 'cluster.create'],
    ]);
    expect(store.audit.verify()).toEqual({ ok: true, rows: 3 });
    store.close();
  });

  test('details and strings with lone surrogates are stored well-formed and hash as their canonical form', () => {
    const { store } = withRows(1);
    const row = store.tx(() =>
      store.audit.append({
        actor: 'al\ud800ice',
        action: 'cluster.update',
        target: null,
        details: { 'k\udc00': ['v\ud800', 1.5, true, null], z: {} },
      }),
    );
    expect(row.actor).toBe('al\ufffdice');
    expect(row.details).toEqual({ 'k\ufffd': ['v\ufffd', 1.5, true, null], z: {} });
    expect(store.audit.list({ limit: 1 })[0]).toEqual(row);
    expect(store.audit.verify()).toEqual({ ok: true, rows: 2 });
    store.close();
  });
});
