// SQL for the service CAs and the ledger of issued certificates: the only SQL on them. The sealed CA key is read
// by one method only (activeCa, for signing); every view and list leaves it out.
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';

export type ServiceCaState = 'active' | 'retiring' | 'retired';

export interface ServiceCaRecord {
  serial: string;
  cluster_id: string;
  cert_pem: string;
  /** The CA's private key sealed by the KeyProtector. */
  sealed_key: Buffer;
  not_after: string;
  created_at: string;
  state: ServiceCaState;
}

/** A service CA as listed: its public certificate, never its key. */
export type ServiceCaView = Omit<ServiceCaRecord, 'sealed_key'>;

export type IssuedCertificateKind = 'service' | 'agent';
export type IssuedCertificateState = 'issued' | 'superseded' | 'revoked';

export interface IssuedCertificateRecord {
  serial: string;
  cluster_id: string;
  host_id: string | null;
  kind: IssuedCertificateKind;
  /** The catalog service it serves; null for an agent's certificate. */
  service: string | null;
  /** The service CA that signed it; null for a certificate of the manager CA. */
  ca_serial: string | null;
  subject: string;
  dns_names: string[];
  ip_addresses: string[];
  not_before: string;
  not_after: string;
  /** When it is due for renewal: two thirds of its life. */
  renew_after: string;
  /** sha256 of its DER, lowercase hex. */
  fingerprint_sha256: string;
  issued_at: string;
  state: IssuedCertificateState;
  superseded_by: string | null;
  revoked_at: string | null;
}

interface CertificateRow extends Omit<IssuedCertificateRecord, 'dns_names' | 'ip_addresses'> {
  dns_names: string;
  ip_addresses: string;
}

const CA_VIEW_COLUMNS = 'serial, cluster_id, cert_pem, not_after, created_at, state';
const CERTIFICATE_COLUMNS =
  'serial, cluster_id, host_id, kind, service, ca_serial, subject, dns_names, ip_addresses, not_before, not_after, renew_after, ' +
  'fingerprint_sha256, issued_at, state, superseded_by, revoked_at';

/**
 * A serial as the ledger keys it: lowercase hex without leading zeros, so that node-forge's serial and the one a
 * TLS stack reports (upper case, sometimes zero-padded) find the same row through the primary key.
 */
export const ledgerSerial = (serial: string): string => serial.toLowerCase().replace(/^0+(?=.)/, '');

const toRecord = (row: CertificateRow): IssuedCertificateRecord => ({
  ...row,
  dns_names: JSON.parse(row.dns_names) as string[],
  ip_addresses: JSON.parse(row.ip_addresses) as string[],
});

export class CertificatesTables {
  constructor(private readonly db: Db) {}

  insertCa(row: ServiceCaRecord): void {
    this.db.prepare(insertSql('service_cas', 'serial, cluster_id, cert_pem, sealed_key, not_after, created_at, state')).run({
      ...row,
      serial: ledgerSerial(row.serial),
    });
  }

  /** The cluster's active CA with its sealed key: for signing, never for a view. */
  activeCa(clusterId: string): ServiceCaRecord | undefined {
    return this.db.prepare("SELECT * FROM service_cas WHERE cluster_id = ? AND state = 'active'").get(clusterId) as
      ServiceCaRecord | undefined;
  }

  /** Every CA of a cluster, oldest first. */
  cas(clusterId: string): ServiceCaView[] {
    return this.db
      .prepare(`SELECT ${CA_VIEW_COLUMNS} FROM service_cas WHERE cluster_id = ? ORDER BY created_at, serial`)
      .all(clusterId) as ServiceCaView[];
  }

  insertCertificate(record: IssuedCertificateRecord): void {
    this.db.prepare(insertSql('issued_certificates', CERTIFICATE_COLUMNS)).run({
      ...record,
      serial: ledgerSerial(record.serial),
      ca_serial: record.ca_serial === null ? null : ledgerSerial(record.ca_serial),
      dns_names: JSON.stringify(record.dns_names),
      ip_addresses: JSON.stringify(record.ip_addresses),
    });
  }

  certificate(serial: string): IssuedCertificateRecord | undefined {
    const row = this.db.prepare(`SELECT ${CERTIFICATE_COLUMNS} FROM issued_certificates WHERE serial = ?`).get(ledgerSerial(serial)) as
      CertificateRow | undefined;
    return row && toRecord(row);
  }

  /** Every certificate, the soonest to expire first: the fleet view. */
  list(): IssuedCertificateRecord[] {
    const rows = this.db
      .prepare(`SELECT ${CERTIFICATE_COLUMNS} FROM issued_certificates ORDER BY not_after, serial`)
      .all() as CertificateRow[];
    return rows.map(toRecord);
  }

  /** A service's certificates in use (state issued) on a cluster, oldest first. */
  serviceInUse(clusterId: string, service: string): IssuedCertificateRecord[] {
    const rows = this.db
      .prepare(
        `SELECT ${CERTIFICATE_COLUMNS} FROM issued_certificates WHERE cluster_id = ? AND kind = 'service' AND service = ? AND state = 'issued' ORDER BY issued_at, serial`,
      )
      .all(clusterId, service) as CertificateRow[];
    return rows.map(toRecord);
  }

  /** The certificates in use (state issued) past two thirds of their life at `at`, the most overdue first. */
  dueForRenewal(at: string): IssuedCertificateRecord[] {
    const rows = this.db
      .prepare(
        `SELECT ${CERTIFICATE_COLUMNS} FROM issued_certificates WHERE state = 'issued' AND renew_after <= ? ORDER BY renew_after, serial`,
      )
      .all(at) as CertificateRow[];
    return rows.map(toRecord);
  }

  /** An issued certificate replaced by `by`; false when it is not (or no longer) in state issued. */
  markSuperseded(serial: string, by: string): boolean {
    return (
      this.db
        .prepare("UPDATE issued_certificates SET state = 'superseded', superseded_by = ? WHERE serial = ? AND state = 'issued'")
        .run(ledgerSerial(by), ledgerSerial(serial)).changes === 1
    );
  }

  /** A certificate revoked at `at`, whether in use or superseded; false when unknown or revoked already. */
  markRevoked(serial: string, at: string): boolean {
    return (
      this.db
        .prepare("UPDATE issued_certificates SET state = 'revoked', revoked_at = ? WHERE serial = ? AND state != 'revoked'")
        .run(at, ledgerSerial(serial)).changes === 1
    );
  }
}
