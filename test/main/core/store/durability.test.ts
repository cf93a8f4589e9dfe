// The store syncs the WAL at every commit (synchronous=FULL): an audit row the API acknowledged survives an OS
// crash or a power cut, not only the death of the process (which NORMAL already survives).
import { afterEach, expect, test } from 'vitest';
import { join } from 'node:path';
import { openDatabase } from '../../../../main/core/store/database';
import { tempDir } from '../../../support/temp-dir';

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

test('the store opens with synchronous=FULL in WAL mode', () => {
  const dir = tempDir();
  dirs.push(dir);
  const db = openDatabase(join(dir.path, 'navin.db'));
  try {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    // 2 = FULL (0 OFF, 1 NORMAL, 3 EXTRA).
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
  } finally {
    db.close();
  }
});

test('bookkeeping writes run with NORMAL and the store is back to FULL afterwards, even when they throw', async () => {
  const { Store } = await import('../../../../main/core/store/store');
  const { ManualClock } = await import('../../../support/clock');
  const dir = tempDir();
  dirs.push(dir);
  const store = Store.open(join(dir.path, 'navin.db'), new ManualClock());
  try {
    expect(store.bookkeeping(() => store.db.pragma('synchronous', { simple: true }))).toBe(1);
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(() =>
      store.bookkeeping(() => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
  } finally {
    store.close();
  }
});
