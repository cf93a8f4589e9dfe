// The commands due to an agent are found through the index by owner and state, so a poll reads the few pending
// commands and not every command the cluster or host ever had.
import { afterEach, expect, test } from 'vitest';
import { join } from 'node:path';
import { openDomainTables } from '../../../../main/core/domain-tables';
import { MODULES } from '../../../../main/core/modules';
import { Store } from '../../../../main/core/store/store';
import { ManualClock } from '../../../support/clock';
import { tempDir } from '../../../support/temp-dir';

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

/** The query plan of the one SQL statement `run` prepares. */
function planOf(store: Store, run: () => unknown): string {
  const seen: string[] = [];
  const prepare = store.db.prepare.bind(store.db);
  store.db.prepare = ((sql: string) => (seen.push(sql), prepare(sql))) as typeof store.db.prepare;
  try {
    run();
  } finally {
    store.db.prepare = prepare as typeof store.db.prepare;
  }
  expect(seen).toHaveLength(1);
  const rows = store.db.prepare(`EXPLAIN QUERY PLAN ${seen[0]!}`).all('x', 'y', 'z') as { detail: string }[];
  return rows.map((r) => r.detail).join('; ');
}

test('the due commands of a cluster and of a host are searched by owner and state', () => {
  const dir = tempDir();
  dirs.push(dir);
  const store = Store.open(join(dir.path, 'navin.db'), new ManualClock());
  const tables = openDomainTables(store.db, MODULES);
  try {
    expect(planOf(store, () => tables.commands.due('c1', '2026-12-04T10:00:00Z', '2026-12-04T10:00:15Z'))).toMatch(
      /USING INDEX commands_pending \(cluster_id=\? AND state=\?\)/,
    );
    expect(planOf(store, () => tables.hosts.due('h1', '2026-12-04T10:00:00Z', '2026-12-04T10:00:15Z'))).toMatch(
      /USING INDEX commands_host \(host_id=\? AND state=\?\)/,
    );
  } finally {
    store.close();
  }
});
