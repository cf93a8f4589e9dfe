// Migration 16: approvals made before they were bound to their exact request are kept (the audit trail points at
// them) but can no longer be spent, since nothing says what they approved; new ones may concern no cluster.
import { afterEach, expect, test } from 'vitest';
import { join } from 'node:path';
import { openDatabase } from '../../../../main/core/store/database';
import { migrations } from '../../../../main/core/store/migrations';
import { DATABASE_FILE, openManager } from '../../../../main/core/manager';
import { ManualClock } from '../../../support/clock';
import { tempDir } from '../../../support/temp-dir';

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

test('an approval approved before migration 16 is kept, and its use is refused approval_mismatch', () => {
  const dir = tempDir();
  dirs.push(dir);
  const clock = new ManualClock();
  const old = openDatabase(
    join(dir.path, DATABASE_FILE),
    migrations.filter((m) => m.version <= 15),
  );
  const at = clock.now().toISOString();
  old
    .prepare(
      "INSERT INTO clusters (id, name, tenant, state, created_at, updated_at, profile) VALUES ('c1', 'bank', 't', 'pending', ?, ?, 'banking-secure')",
    )
    .run(at, at);
  old
    .prepare(
      `INSERT INTO approvals (id, cluster_id, action, service, reason, state, requested_by, requested_at, decided_by, decided_at, expires_at)
       VALUES ('a1', 'c1', 'configuration', 'nats', 'old', 'approved', 'u1', ?, 'u2', ?, ?)`,
    )
    .run(at, at, new Date(clock.now().getTime() + 3600_000).toISOString());
  old.close();

  const manager = openManager({ dataDir: dir.path, mode: 'headless', clock });
  try {
    expect(manager.approvals.get('a1')).toMatchObject({ state: 'approved', cluster_id: 'c1', digest: null, change: null });
    expect(() =>
      manager.approvals.check('a1', { cluster_id: 'c1', action: 'configuration', service: 'nats', user_id: 'u1', change: null }),
    ).toThrow(expect.objectContaining({ code: 'approval_mismatch' }));
    manager.tables.approvals.insert({
      ...manager.tables.approvals.get('a1')!,
      id: 'a2',
      cluster_id: null,
      action: 'create_admin',
      change: null,
      digest: null,
    });
    expect(manager.tables.approvals.get('a2')!.cluster_id).toBeNull();
  } finally {
    manager.close();
  }
});
