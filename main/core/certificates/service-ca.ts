// One cluster's service CA (node-forge): made on first need, its key sealed at rest by the KeyProtector as the
// manager CA's is. Its certificate is public and goes to the hosts in plans; its key never leaves the manager.
import forge from 'node-forge';
import type { KeyProtector } from '../keys/protector';
import { newRsaKey, newSerial, openPrivateKey, sealPrivateKey } from '../keys/rsa-keys';
import { ledgerSerial, type ServiceCaRecord, type ServiceCaView } from './certificates-tables';

const DAY = 86_400_000;
/** Ten years, as the manager CA: the CA outlives many 90-day certificates and is rotated with an overlap. */
export const SERVICE_CA_DAYS = 3650;
/** As the manager CA's: the CA signs for years, its leaves for months. */
const SERVICE_CA_KEY_BITS = 3072;

export class ServiceCa {
  private constructor(
    readonly view: ServiceCaView,
    private readonly certificate: forge.pki.Certificate,
    private readonly key: forge.pki.rsa.PrivateKey,
  ) {}

  /** A new CA for the cluster, and the row that keeps it (the key sealed). */
  static create(clusterId: string, protector: KeyProtector, now: Date): { ca: ServiceCa; record: ServiceCaRecord } {
    const key = newRsaKey(SERVICE_CA_KEY_BITS);
    const cert = forge.pki.createCertificate();
    cert.publicKey = key.publicKey;
    cert.serialNumber = newSerial();
    cert.validity.notBefore = new Date(now.getTime() - 60_000);
    cert.validity.notAfter = new Date(now.getTime() + SERVICE_CA_DAYS * DAY);
    // The serial in the name tells two CAs of one cluster apart while a rotation trusts both.
    const subject = [
      { name: 'commonName', value: `Navin service CA ${clusterId}` },
      { name: 'organizationName', value: 'Navin Console' },
      { name: 'serialNumber', value: ledgerSerial(cert.serialNumber) },
    ];
    cert.setSubject(subject);
    cert.setIssuer(subject);
    cert.setExtensions([
      // pathLen 0: it signs leaf certificates only.
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ]);
    cert.sign(key.forgeKey, forge.md.sha256.create());
    const record: ServiceCaRecord = {
      serial: ledgerSerial(cert.serialNumber),
      cluster_id: clusterId,
      cert_pem: forge.pki.certificateToPem(cert),
      sealed_key: sealPrivateKey(protector, key),
      not_after: cert.validity.notAfter.toISOString(),
      created_at: now.toISOString(),
      state: 'active',
    };
    return { ca: new ServiceCa(withoutKey(record), cert, key.forgeKey), record };
  }

  /** A stored CA, its key unsealed for signing. */
  static open(record: ServiceCaRecord, protector: KeyProtector): ServiceCa {
    return new ServiceCa(withoutKey(record), forge.pki.certificateFromPem(record.cert_pem), openPrivateKey(protector, record.sealed_key));
  }

  get serial(): string {
    return this.view.serial;
  }

  get certPem(): string {
    return this.view.cert_pem;
  }

  /** The CA's subject key identifier, the authority key identifier of what it signs. */
  keyIdentifier(): string {
    return this.certificate.generateSubjectKeyIdentifier().getBytes();
  }

  /** Names this CA as the issuer of `cert` and signs it (SHA-256). */
  sign(cert: forge.pki.Certificate): void {
    cert.setIssuer(this.certificate.subject.attributes);
    cert.sign(this.key, forge.md.sha256.create());
  }
}

function withoutKey(record: ServiceCaRecord): ServiceCaView {
  const { sealed_key: _sealed, ...view } = record;
  return view;
}
