// The certificates domain's schema: the per-cluster service CAs and the ledger of the certificates they issued.
// Global version numbers after the store's closed ledger (1-16); append only, like it.
import type { Migration } from '../store/migrations';

export const certificatesMigrations: readonly Migration[] = [
  {
    version: 17,
    name: 'per-cluster service CAs and the ledger of the certificates issued to services and agents',
    // A cluster has one active CA; a rotated one stays 'retiring' (still trusted) until every holder has moved,
    // then 'retired'. The key is sealed by the KeyProtector and never leaves the manager. A deleted cluster or
    // host takes its CAs and certificates with it: nothing would renew them, and a lingering key is a risk.
    // renew_after is two thirds of a certificate's life, written at issue so that the due ones are one indexed
    // comparison. ca_serial names the service CA that signed it (null for a certificate of the manager CA).
    sql: `
      CREATE TABLE service_cas (
        serial TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        cert_pem TEXT NOT NULL,
        sealed_key BLOB NOT NULL,
        not_after TEXT NOT NULL,
        created_at TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('active','retiring','retired'))
      );
      CREATE UNIQUE INDEX service_cas_active ON service_cas(cluster_id) WHERE state = 'active';

      CREATE TABLE issued_certificates (
        serial TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        host_id TEXT REFERENCES hosts(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('service','agent')),
        service TEXT,
        ca_serial TEXT,
        subject TEXT NOT NULL,
        dns_names TEXT NOT NULL,
        ip_addresses TEXT NOT NULL,
        not_before TEXT NOT NULL,
        not_after TEXT NOT NULL,
        renew_after TEXT NOT NULL,
        fingerprint_sha256 TEXT NOT NULL,
        issued_at TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('issued','superseded','revoked')),
        superseded_by TEXT,
        revoked_at TEXT
      );
      CREATE INDEX issued_certificates_expiry ON issued_certificates(not_after);
      CREATE INDEX issued_certificates_renewal ON issued_certificates(renew_after) WHERE state = 'issued';
      CREATE INDEX issued_certificates_cluster ON issued_certificates(cluster_id, host_id);
    `,
  },
];
