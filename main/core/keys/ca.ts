// The manager CA (node-forge): its own certificate, the console and gateway server certificates, and one client
// certificate per cluster agent. Every serial it issues is recorded in the store with its cluster.
import type { Tables } from '../domain-tables';
import { isIP } from 'node:net';
import forge from 'node-forge';
import type { Clock } from '../clock';
import type { CertificateKind } from './keys-tables';
import type { KeyProtector } from './protector';
import { newRsaKey, newSerial, openPrivateKey, sealPrivateKey } from './rsa-keys';
import { hostUri } from '../../wire/node-agent';

export interface IssuedCertificate {
  serial: string;
  certPem: string;
  keyPem: string;
  notAfter: Date;
}

/** A certificate for a key the manager never held (an agent's CSR): no key to hand out. */
export type RenewedCertificate = Omit<IssuedCertificate, 'keyPem'>;

const DAY = 86_400_000;
const NODE_AGENT_ORGANIZATION = 'navin-node-agent';

/** A client certificate's extensions: client authentication, and the URI SAN its agent is known by. */
const clientExtensions = (uri: string): object[] => [
  { name: 'extKeyUsage', clientAuth: true },
  { name: 'subjectAltName', altNames: [{ type: 6, value: uri }] },
];
/** The URI SAN that binds a client certificate to its cluster; the gateway maps a certificate by it. */
export const clusterUri = (clusterId: string): string => `urn:navin:cluster:${clusterId}`;

/** What a certificate is for and how it is named: kind, cluster, CN, days, extensions, organization. */
type Naming = [
  kind: CertificateKind,
  clusterId: string | null,
  commonName: string,
  days: number,
  extensions: object[],
  organization?: string,
];

/** A CA's certificate and sealed key as stored. */
export interface StoredCa {
  cert_pem: string;
  sealed_key: Buffer;
}

/**
 * What a CA rotation (ca-rotation.ts) says the CA is now: the one that issues, and every CA certificate trusted
 * for the gateway and the agents (the issuing one among them). Undefined: no rotation under way.
 */
export type CaTrustSource = () => { issuer: StoredCa; trusted: string[] } | undefined;

export class CertificateAuthority {
  private issuerCertPem = '';
  private caKey!: forge.pki.rsa.PrivateKey;
  private trusted: string[] = [];
  private source: CaTrustSource = () => undefined;
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly tables: Tables<'keys'>,
    private readonly protector: KeyProtector,
    private readonly clock: Clock,
  ) {
    this.reload();
  }

  static loadOrCreate(tables: Tables<'keys'>, protector: KeyProtector, clock: Clock): CertificateAuthority {
    if (!tables.keys.ca()) CertificateAuthority.create(tables, protector, clock);
    return new CertificateAuthority(tables, protector, clock);
  }

  /** A new self-signed CA certificate and its key, sealed; recorded as the CA unless `record` is false (a rotation's). */
  static create(
    tables: Tables<'keys'>,
    protector: KeyProtector,
    clock: Clock,
    o: { record?: boolean; commonName?: string } = {},
  ): StoredCa {
    const key = newRsaKey(3072);
    const cert = forge.pki.createCertificate();
    const now = clock.now();
    cert.publicKey = key.publicKey;
    cert.serialNumber = newSerial();
    cert.validity.notBefore = new Date(now.getTime() - 60_000);
    cert.validity.notAfter = new Date(now.getTime() + 3650 * DAY);
    const subject = [
      { name: 'commonName', value: o.commonName ?? 'Navin Manager CA' },
      { name: 'organizationName', value: 'Navin Console' },
    ];
    cert.setSubject(subject);
    cert.setIssuer(subject);
    cert.setExtensions([
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ]);
    cert.sign(key.forgeKey, forge.md.sha256.create());
    const stored = { cert_pem: forge.pki.certificateToPem(cert), sealed_key: sealPrivateKey(protector, key) };
    if (o.record ?? true) tables.keys.insertCa({ ...stored, created_at: now.toISOString() });
    return stored;
  }

  /**
   * The CA certificates to trust, the issuing one first, as one PEM bundle: what an agent's ca.crt holds and what
   * a client of the gateway or the console trusts. One certificate outside a rotation.
   */
  get certPem(): string {
    return this.trusted.map((p) => `${p.trim()}\n`).join('');
  }

  /** The certificate of the CA that issues today (the first of certPem). */
  get issuerPem(): string {
    return this.issuerCertPem;
  }

  /** Every CA certificate trusted today, the issuing one first. */
  trustedPems(): string[] {
    return [...this.trusted];
  }

  /** Follows a CA rotation from now on (its source is read again at each reload). */
  followRotation(source: CaTrustSource): void {
    this.source = source;
    this.reload();
  }

  /** Called after each change of the issuing or trusted CAs (the gateway reloads its TLS then); returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Reads the issuing and trusted CAs again (the store's CA, or the rotation's); true when they changed, and then
   * the listeners are told. Another process (a gateway of its own) sees a rotation's steps by calling this.
   */
  reload(): boolean {
    const rotation = this.source();
    const issuer = rotation?.issuer ?? this.tables.keys.ca();
    if (!issuer) throw new Error('the manager CA is missing from the store');
    const trusted = [issuer.cert_pem, ...(rotation?.trusted ?? []).filter((p) => p !== issuer.cert_pem)];
    if (issuer.cert_pem === this.issuerCertPem && trusted.join() === this.trusted.join()) return false;
    const first = this.issuerCertPem === '';
    if (issuer.cert_pem !== this.issuerCertPem) this.caKey = openPrivateKey(this.protector, issuer.sealed_key);
    this.issuerCertPem = issuer.cert_pem;
    this.trusted = trusted;
    if (!first) for (const l of [...this.listeners]) l();
    return true;
  }

  /** A TLS server certificate for the console or the gateway; every name becomes a DNS or IP SAN. */
  issueServer(kind: Extract<CertificateKind, 'console' | 'gateway'>, names: readonly string[], days = 397): IssuedCertificate {
    const altNames = names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n }));
    return this.issue(kind, null, names[0] ?? 'localhost', days, [
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ]);
  }

  /** A client certificate for one cluster's agent, bound to it by CN and URI SAN. */
  issueClient(clusterId: string, days = 397): IssuedCertificate {
    return this.issue('client', clusterId, clusterId, days, clientExtensions(clusterUri(clusterId)));
  }

  /**
   * A renewing agent's certificate for the key of its CSR: a host's node agent's (hostId) or a cluster's agent's,
   * named and bound exactly as the one issued by hand (issueHostClient, issueClient), for 397 days like it.
   */
  renewClient(clusterId: string, hostId: string | null, publicKey: forge.pki.rsa.PublicKey, days = 397): RenewedCertificate {
    if (!hostId) return this.sign(publicKey, 'client', clusterId, clusterId, days, clientExtensions(clusterUri(clusterId)));
    const uri = hostUri(hostId);
    return this.sign(publicKey, 'client', clusterId, uri, days, clientExtensions(uri), NODE_AGENT_ORGANIZATION);
  }

  /**
   * A client certificate for one host's node agent, bound to the host by CN and URI SAN (urn:navin:host:<id>);
   * recorded with its cluster, the caller binds the serial to the host (HostsTables.bindCertificate).
   */
  issueHostClient(clusterId: string, hostUriValue: string, days = 397): IssuedCertificate {
    return this.issue('client', clusterId, hostUriValue, days, clientExtensions(hostUriValue), NODE_AGENT_ORGANIZATION);
  }

  private issue(...named: Naming): IssuedCertificate {
    const key = newRsaKey(2048);
    return { ...this.sign(key.publicKey, ...named), keyPem: key.pem };
  }

  /** Signs and records a certificate for `publicKey`. */
  private sign(publicKey: forge.pki.rsa.PublicKey, ...named: Naming): RenewedCertificate {
    const [kind, clusterId, commonName, days, extensions] = named;
    const organization = named[5] ?? (kind === 'client' ? 'navin-cluster-agent' : 'Navin Console');
    const caCert = forge.pki.certificateFromPem(this.issuerCertPem);
    const cert = forge.pki.createCertificate();
    const now = this.clock.now();
    cert.publicKey = publicKey;
    cert.serialNumber = newSerial();
    cert.validity.notBefore = new Date(now.getTime() - 60_000);
    cert.validity.notAfter = new Date(now.getTime() + days * DAY);
    cert.setSubject([
      { name: 'commonName', value: commonName },
      { name: 'organizationName', value: organization },
    ]);
    cert.setIssuer(caCert.subject.attributes);
    cert.setExtensions([
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
      ...extensions,
    ]);
    cert.sign(this.caKey, forge.md.sha256.create());
    this.tables.keys.insertCertificate({
      serial: cert.serialNumber,
      kind,
      cluster_id: clusterId,
      subject: commonName,
      not_before: cert.validity.notBefore.toISOString(),
      not_after: cert.validity.notAfter.toISOString(),
      issued_at: now.toISOString(),
      revoked_at: null,
    });
    return { serial: cert.serialNumber, certPem: forge.pki.certificateToPem(cert), notAfter: cert.validity.notAfter };
  }
}
