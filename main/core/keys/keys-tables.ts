// SQL for the manager's key material: Ed25519 signing keys (seeds sealed at rest), the CA, and the record of
// every certificate it issued with its cluster and revocation time.
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';
import { revokeFound } from '../store/certificate-revocation';

export interface SigningKeyRecord {
  key_id: string;
  public_key: Buffer;
  sealed_seed: Buffer;
  created_at: string;
  retired_at: string | null;
}

export interface CaRecord {
  cert_pem: string;
  sealed_key: Buffer;
  created_at: string;
}

export type CertificateKind = 'console' | 'gateway' | 'client';

export interface CertificateRecord {
  serial: string;
  kind: CertificateKind;
  cluster_id: string | null;
  /** The host of a node agent's client certificate (set by HostsTables.bindCertificate). */
  host_id?: string | null;
  subject: string;
  not_before: string;
  not_after: string;
  issued_at: string;
  revoked_at: string | null;
}

export class KeysTables {
  constructor(private readonly db: Db) {}

  insertSigningKey(row: SigningKeyRecord): void {
    this.db.prepare(insertSql('signing_keys', 'key_id, public_key, sealed_seed, created_at, retired_at')).run(row);
  }

  signingKeys(): SigningKeyRecord[] {
    return this.db.prepare('SELECT * FROM signing_keys ORDER BY created_at, key_id').all() as SigningKeyRecord[];
  }

  retireSigningKey(keyId: string, at: string): boolean {
    return this.db.prepare('UPDATE signing_keys SET retired_at = ? WHERE key_id = ? AND retired_at IS NULL').run(at, keyId).changes === 1;
  }

  ca(): CaRecord | undefined {
    return this.db.prepare('SELECT cert_pem, sealed_key, created_at FROM ca WHERE id = 1').get() as CaRecord | undefined;
  }

  insertCa(row: CaRecord): void {
    this.db.prepare('INSERT INTO ca (id, cert_pem, sealed_key, created_at) VALUES (1, @cert_pem, @sealed_key, @created_at)').run(row);
  }

  insertCertificate(row: CertificateRecord): void {
    this.db.prepare(insertSql('certificates', 'serial, kind, cluster_id, subject, not_before, not_after, issued_at, revoked_at')).run(row);
  }

  certificate(serial: string): CertificateRecord | undefined {
    return this.db.prepare('SELECT * FROM certificates WHERE serial = ?').get(serial) as CertificateRecord | undefined;
  }

  /** A client certificate by serial as TLS reports it (compared without case or leading zeros). */
  clientCertificateBySerial(serial: string): CertificateRecord | undefined {
    return this.db
      .prepare("SELECT * FROM certificates WHERE kind = 'client' AND ltrim(lower(serial), '0') = ltrim(lower(?), '0')")
      .get(serial) as CertificateRecord | undefined;
  }

  /** Every certificate of the manager CA, the soonest to expire first: its part of the fleet view. */
  certificates(): CertificateRecord[] {
    return this.db.prepare('SELECT * FROM certificates ORDER BY not_after, serial').all() as CertificateRecord[];
  }

  certificatesOf(clusterId: string): CertificateRecord[] {
    return this.db.prepare('SELECT * FROM certificates WHERE cluster_id = ? ORDER BY issued_at').all(clusterId) as CertificateRecord[];
  }

  /** Revokes every live client certificate of a cluster; returns the serials revoked. */
  revokeClientCertificates(clusterId: string, at: string): string[] {
    return revokeFound(
      this.db,
      "SELECT serial FROM certificates WHERE cluster_id = ? AND kind = 'client' AND revoked_at IS NULL",
      [clusterId],
      at,
    );
  }

  /**
   * Revokes the live client certificates of the same agent as `serial` (its host's, else its cluster agent's)
   * issued after it: its renewals never used, since the first use of one revokes `serial`. Returns them. Issue
   * order is the rowid's (a certificate row is never deleted).
   */
  revokeUnusedRenewalsOf(serial: string, at: string): string[] {
    return revokeFound(this.db, `${SAME_AGENT_LIVE} AND o.rowid > c.rowid ORDER BY o.rowid`, [serial], at);
  }

  /** Revokes the live client certificates of the same agent issued before `serial` (those it renewed); returns them. */
  revokeRenewedBy(serial: string, at: string): string[] {
    return revokeFound(this.db, `${SAME_AGENT_LIVE} AND o.rowid < c.rowid`, [serial], at);
  }
}

/** The other live client certificates of the agent of certificate `?`: same cluster, same host (or none). */
const SAME_AGENT_LIVE = `SELECT o.serial FROM certificates o JOIN certificates c ON c.serial = ?
  WHERE o.kind = 'client' AND o.revoked_at IS NULL AND o.serial <> c.serial
    AND o.cluster_id IS c.cluster_id AND o.host_id IS c.host_id`;
