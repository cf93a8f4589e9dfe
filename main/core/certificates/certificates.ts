// The certificates domain: each cluster's service CA (made on first need), service certificates signed from the
// node agents' CSRs for the names the manager knows, and the ledger the fleet view and renewal read.
import type { Clock } from '../clock';
import { CoreError, NotFoundError, found } from '../errors';
import type { KeyProtector } from '../keys/protector';
import type { Store } from '../store/store';
import {
  CertificatesTables,
  ledgerSerial,
  type IssuedCertificateRecord,
  type ServiceCaRecord,
  type ServiceCaView,
} from './certificates-tables';
import { serviceCertificateRequest, signServiceRequest, type ServiceNames } from './csr-signing';
import { ServiceCa } from './service-ca';

/** Renewal is due once this share of a certificate's life has passed. */
export const RENEW_AT_FRACTION = 2 / 3;

export interface CertificatesDeps {
  /** The database, transactions and the audit log. */
  store: Pick<Store, 'db' | 'tx' | 'audit'>;
  protector: KeyProtector;
  clock: Clock;
}

export interface IssueRequest extends ServiceNames {
  clusterId: string;
  /** The host the service runs on; null for a service of no one host. */
  hostId: string | null;
  /** A PEM PKCS#10 request made on the host, whose key never leaves it. */
  csrPem: string;
  /** Validity in days; SERVICE_CERTIFICATE_DAYS when absent. */
  days?: number;
  actor: string;
}

/** What the host is sent back: its certificate and the CA to trust, both public. */
export interface IssuedServiceCertificate {
  certificate: IssuedCertificateRecord;
  cert_pem: string;
  ca_pem: string;
}

export class Certificates {
  readonly tables: CertificatesTables;
  /** Unsealed CAs by serial: a CA's key is opened once per process, as the manager CA's is. */
  private readonly opened = new Map<string, ServiceCa>();

  constructor(private readonly deps: CertificatesDeps) {
    this.tables = new CertificatesTables(deps.store.db);
  }

  /** The cluster's active service CA (its public part), made and recorded on first need. */
  serviceCa(clusterId: string, actor = 'manager'): ServiceCaView {
    return this.activeCa(clusterId, actor).view;
  }

  /** Signs a host's CSR for the names given by the caller (never the CSR's) and records the certificate. */
  issue(request: IssueRequest): IssuedServiceCertificate {
    // Judged first: a refused request leaves no CA made for nothing.
    const judged = serviceCertificateRequest(request.csrPem, request, request.days);
    const ca = this.activeCa(request.clusterId, request.actor);
    const now = this.deps.clock.now();
    const signed = signServiceRequest(ca, judged, now);
    const life = signed.notAfter.getTime() - signed.notBefore.getTime();
    const certificate: IssuedCertificateRecord = {
      serial: signed.serial,
      cluster_id: request.clusterId,
      host_id: request.hostId,
      kind: 'service',
      service: request.service,
      ca_serial: ca.serial,
      subject: signed.subject,
      dns_names: signed.dnsNames,
      ip_addresses: signed.ipAddresses,
      not_before: signed.notBefore.toISOString(),
      not_after: signed.notAfter.toISOString(),
      renew_after: new Date(signed.notBefore.getTime() + Math.floor(life * RENEW_AT_FRACTION)).toISOString(),
      fingerprint_sha256: signed.fingerprintSha256,
      issued_at: now.toISOString(),
      state: 'issued',
      superseded_by: null,
      revoked_at: null,
    };
    this.deps.store.tx(() => {
      const [what, id] = request.hostId === null ? ['cluster', request.clusterId] : ['host', request.hostId];
      unknownReference(() => this.tables.insertCertificate(certificate), what, id);
      this.deps.store.audit.append({
        actor: request.actor,
        action: 'certificate.issue',
        cluster_id: request.clusterId,
        target: signed.serial,
        details: { service: request.service, host_id: request.hostId, subject: signed.subject, not_after: certificate.not_after },
      });
    });
    return { certificate, cert_pem: signed.certPem, ca_pem: ca.certPem };
  }

  /** Every issued certificate, the soonest to expire first. */
  list(): IssuedCertificateRecord[] {
    return this.tables.list();
  }

  /** A service's certificates in use on a cluster (neither superseded nor revoked), oldest first. */
  inUse(clusterId: string, service: string): IssuedCertificateRecord[] {
    return this.tables.serviceInUse(clusterId, service);
  }

  /** The certificates in use that have passed two thirds of their life at `now`. */
  dueForRenewal(now: Date = this.deps.clock.now()): IssuedCertificateRecord[] {
    return this.tables.dueForRenewal(now.toISOString());
  }

  /** Once its successor is installed and live, a certificate is superseded: no longer renewed, still valid. */
  supersede(serial: string, by: string): void {
    found(this.tables.certificate(by), 'certificate', by);
    const old = found(this.tables.certificate(serial), 'certificate', serial);
    if (!this.tables.markSuperseded(serial, by))
      throw new CoreError('conflict', `certificate ${old.serial} is ${old.state}, not in use: it cannot be superseded`);
  }

  revoke(serial: string, actor: string): IssuedCertificateRecord {
    return this.deps.store.tx(() => {
      const cert = found(this.tables.certificate(serial), 'certificate', serial);
      if (!this.tables.markRevoked(cert.serial, this.deps.clock.now().toISOString()))
        throw new CoreError('certificate_revoked', `certificate ${cert.serial} is revoked already`);
      this.deps.store.audit.append({ actor, action: 'certificate.revoke', cluster_id: cert.cluster_id, target: cert.serial });
      return found(this.tables.certificate(serial), 'certificate', serial);
    });
  }

  private activeCa(clusterId: string, actor: string): ServiceCa {
    const stored = this.tables.activeCa(clusterId);
    if (stored) return this.unsealed(stored);
    // The key is made outside the transaction (seconds of RSA work must not hold the write lock); if another
    // process made the cluster's CA meanwhile, that one stands and this one is dropped.
    const { ca, record } = ServiceCa.create(clusterId, this.deps.protector, this.deps.clock.now());
    const kept = this.deps.store.tx(() => {
      const raced = this.tables.activeCa(clusterId);
      if (raced) return raced;
      unknownReference(() => this.tables.insertCa(record), 'cluster', clusterId);
      this.deps.store.audit.append({ actor, action: 'certificate.ca_create', cluster_id: clusterId, target: record.serial });
      return undefined;
    });
    if (kept) return this.unsealed(kept);
    this.opened.set(ca.serial, ca);
    return ca;
  }

  private unsealed(record: ServiceCaRecord): ServiceCa {
    const serial = ledgerSerial(record.serial);
    let ca = this.opened.get(serial);
    if (!ca) {
      ca = ServiceCa.open(record, this.deps.protector);
      this.opened.set(serial, ca);
    }
    return ca;
  }
}

/** A row naming a cluster or host the store does not have is that one's not_found, not an SQL error. */
function unknownReference(insert: () => void, what: string, id: string): void {
  try {
    insert();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new NotFoundError(what, id);
    throw error;
  }
}
