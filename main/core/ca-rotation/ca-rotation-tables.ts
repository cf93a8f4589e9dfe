// SQL for the manager CA's rotation: the rotation row, the step rows of each agent, and what the rotation reads
// and writes of the CA's own records (the agents holding live certificates, the CA row it replaces, the old
// certificates it revokes), all in the keys domain's tables.
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';
import { revokeFound } from '../store/certificate-revocation';

export const CA_ROTATION_STATES = ['started', 'serving-new', 'retiring', 'done'] as const;
export type CaRotationState = (typeof CA_ROTATION_STATES)[number];
export const CA_ROTATION_STEPS = ['trust-both', 'renew', 'trust-new'] as const;
export type CaRotationStep = (typeof CA_ROTATION_STEPS)[number];

export interface CaRotationRecord {
  id: string;
  state: CaRotationState;
  old_cert_pem: string;
  old_sealed_key: Buffer;
  new_cert_pem: string;
  new_sealed_key: Buffer;
  first_new_certificate: number | null;
  started_by: string;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface CaRotationStepRecord {
  rotation_id: string;
  cluster_id: string;
  /** '' for a cluster agent. */
  host_id: string;
  step: CaRotationStep;
  command_id: string;
  issued_at: string;
}

/** An agent that holds a live client certificate of the manager CA: a cluster's agent (host_id '') or a host's. */
export interface CertifiedAgent {
  cluster_id: string;
  host_id: string;
  /** Whether it holds a live certificate issued from `first_new_certificate` on, and no older live one. */
  on_new_ca: boolean;
}

export class CaRotationTables {
  constructor(private readonly db: Db) {}

  insert(row: CaRotationRecord): void {
    this.db
      .prepare(
        insertSql(
          'ca_rotations',
          'id, state, old_cert_pem, old_sealed_key, new_cert_pem, new_sealed_key, first_new_certificate, started_by, started_at, updated_at, finished_at',
        ),
      )
      .run(row);
  }

  /** The rotation under way (not done), if any. */
  active(): CaRotationRecord | undefined {
    return this.db.prepare("SELECT * FROM ca_rotations WHERE state <> 'done' ORDER BY started_at DESC LIMIT 1").get() as
      CaRotationRecord | undefined;
  }

  /** The newest rotation, done or not. */
  latest(): CaRotationRecord | undefined {
    return this.db.prepare('SELECT * FROM ca_rotations ORDER BY started_at DESC, rowid DESC LIMIT 1').get() as CaRotationRecord | undefined;
  }

  setState(id: string, from: CaRotationState, to: CaRotationState, at: string, firstNewCertificate?: number): boolean {
    return (
      this.db
        .prepare(
          `UPDATE ca_rotations SET state = ?, updated_at = ?, first_new_certificate = coalesce(?, first_new_certificate),
             finished_at = CASE WHEN ? = 'done' THEN ? ELSE finished_at END WHERE id = ? AND state = ?`,
        )
        .run(to, at, firstNewCertificate ?? null, to, at, id, from).changes === 1
    );
  }

  steps(rotationId: string): CaRotationStepRecord[] {
    return this.db.prepare('SELECT * FROM ca_rotation_steps WHERE rotation_id = ?').all(rotationId) as CaRotationStepRecord[];
  }

  putStep(row: CaRotationStepRecord): void {
    this.db
      .prepare(
        `${insertSql('ca_rotation_steps', 'rotation_id, cluster_id, host_id, step, command_id, issued_at')}
         ON CONFLICT (rotation_id, cluster_id, host_id, step) DO UPDATE SET command_id = excluded.command_id, issued_at = excluded.issued_at`,
      )
      .run(row);
  }

  /** The rowid the next certificate of the manager CA will get (every later one is the new CA's once it issues). */
  nextCertificateRowid(): number {
    return (this.db.prepare('SELECT coalesce(max(rowid), 0) + 1 AS n FROM certificates').get() as { n: number }).n;
  }

  /**
   * Every agent with a live (unrevoked, unexpired) client certificate, and whether it is on the new CA: its live
   * certificates are all at or past `firstNew` (null: none is yet).
   */
  certifiedAgents(now: string, firstNew: number | null): CertifiedAgent[] {
    const rows = this.db
      .prepare(
        `SELECT cluster_id, coalesce(host_id, '') AS host_id, min(rowid) AS oldest FROM certificates
           WHERE kind = 'client' AND revoked_at IS NULL AND not_after > ? AND cluster_id IS NOT NULL
           GROUP BY cluster_id, coalesce(host_id, '') ORDER BY cluster_id, host_id`,
      )
      .all(now) as { cluster_id: string; host_id: string; oldest: number }[];
    return rows.map((r) => ({ cluster_id: r.cluster_id, host_id: r.host_id, on_new_ca: firstNew !== null && r.oldest >= firstNew }));
  }

  /** Revokes every live certificate issued before `firstNew` (the old CA's); returns their serials. */
  revokeBefore(firstNew: number, at: string): string[] {
    return revokeFound(this.db, 'SELECT serial FROM certificates WHERE rowid < ? AND revoked_at IS NULL', [firstNew], at);
  }

  /** The new CA becomes the store's CA (the old one stays in the rotation's row). */
  replaceCa(certPem: string, sealedKey: Buffer, at: string): void {
    this.db.prepare('UPDATE ca SET cert_pem = ?, sealed_key = ?, created_at = ? WHERE id = 1').run(certPem, sealedKey, at);
  }
}
