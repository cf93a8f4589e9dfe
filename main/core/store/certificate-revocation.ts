// The revocation of the manager's certificates, shared by the domains that revoke (keys, hosts, the CA rotation):
// each says which certificates by its own SELECT, the revocation itself is written once.
import type { Db } from './database';

/**
 * Revokes at `at` the certificates whose serials `select` (a SELECT of the one column serial) finds with `args`;
 * returns those serials.
 */
export function revokeFound(db: Db, select: string, args: unknown[], at: string): string[] {
  const serials = (db.prepare(select).all(...args) as { serial: string }[]).map((r) => r.serial);
  const stmt = db.prepare('UPDATE certificates SET revoked_at = ? WHERE serial = ?');
  for (const serial of serials) stmt.run(at, serial);
  return serials;
}
