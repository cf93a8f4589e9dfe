// Migration 7: API tokens made before expiry existed keep working, now with an id and the default lifetime
// counted from the upgrade, instead of living for ever (or dying at once).
import { afterEach, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { openDatabase } from '../../../../main/core/store/database';
import { migrations } from '../../../../main/core/store/migrations';
import { tempDir } from '../../../support/temp-dir';

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

test('an old token row gets an id and expires 90 days after the upgrade', () => {
  const dir = tempDir();
  dirs.push(dir);
  const file = join(dir.path, 'navin.db');
  const old = openDatabase(
    file,
    migrations.filter((m) => m.version <= 6),
  );
  old
    .prepare("INSERT INTO users (id, name, role, password_hash, created_at) VALUES ('u1', 'alice', 'admin', 'x', '2024-01-01T00:00:00Z')")
    .run();
  const hash = createHash('sha256').update('navin_old').digest('hex');
  old.prepare("INSERT INTO api_tokens (token_hash, user_id, created_at) VALUES (?, 'u1', '2024-01-01T00:00:00Z')").run(hash);
  old.close();

  const db = openDatabase(file);
  try {
    const row = db.prepare('SELECT * FROM api_tokens WHERE token_hash = ?').get(hash) as {
      id: string;
      expires_at: string;
      revoked_at: null;
    };
    expect(row.id).toMatch(/^[0-9a-f]{16}$/);
    expect(row.revoked_at).toBeNull();
    const days = (Date.parse(row.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThan(90.1);
  } finally {
    db.close();
  }
});
