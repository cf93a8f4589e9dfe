// A service certificate from a node agent's PKCS#10 request: the request only proves that the host holds the
// key. Every name in the certificate is the manager's (the host's name and addresses it knows), never the CSR's.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';
import { CoreError, ValidationError } from '../errors';
import { HOST_NAME, labelProblem } from '../clusters/names';
import { newSerial } from '../keys/rsa-keys';
import { ledgerSerial } from './certificates-tables';
import type { ServiceCa } from './service-ca';

const DAY = 86_400_000;
/** A service certificate lives 90 days and is renewed at two thirds of that: short, since renewal is automatic. */
export const SERVICE_CERTIFICATE_DAYS = 90;
/** node-forge parses RSA requests only, so the node agent makes RSA keys; below 2048 bits is refused. */
export const MIN_CSR_RSA_BITS = 2048;
/** A host's clock may run behind the manager's: the certificate is valid from a little before it was signed. */
const CLOCK_SKEW_MS = 5 * 60_000;
const MAX_CSR_PEM = 64 * 1024;

/** The names the manager knows for one service on one host: they, and only they, go in the certificate. */
export interface ServiceNames {
  /** The catalog service, e.g. etcd. */
  service: string;
  /** The host's name (one DNS label): a DNS SAN. */
  hostName: string;
  /** The host's IP addresses (IP SANs) and any further DNS names it is reached by (DNS SANs). */
  addresses: readonly string[];
}

export interface SignedServiceCertificate {
  serial: string;
  certPem: string;
  subject: string;
  dnsNames: string[];
  ipAddresses: string[];
  notBefore: Date;
  notAfter: Date;
  /** sha256 of the DER, lowercase hex. */
  fingerprintSha256: string;
}

/**
 * The public key of a PEM PKCS#10 request whose own signature verifies and whose key is RSA of 2048 bits or more.
 * node-forge reads RSA requests only: any other key is csr_key_unsupported.
 */
export function verifiedCsrKey(csrPem: string): forge.pki.rsa.PublicKey {
  if (typeof csrPem !== 'string' || csrPem.length > MAX_CSR_PEM || !csrPem.includes('-----BEGIN CERTIFICATE REQUEST-----'))
    throw new CoreError('csr_invalid', 'the CSR is not a PEM "CERTIFICATE REQUEST" (PKCS#10)');
  let csr: forge.pki.CertificateSigningRequest;
  try {
    csr = forge.pki.certificationRequestFromPem(csrPem);
  } catch (error) {
    const message = (error as Error).message;
    if (/not RSA/i.test(message))
      throw new CoreError('csr_key_unsupported', 'the CSR carries a key that is not RSA; the manager signs RSA requests only');
    throw new CoreError('csr_invalid', `the CSR cannot be read: ${message}`);
  }
  const publicKey = csr.publicKey as forge.pki.rsa.PublicKey | null;
  if (!publicKey) throw new CoreError('csr_invalid', 'the CSR carries no public key');
  let signed = false;
  try {
    signed = csr.verify();
  } catch {
    // node-forge throws, rather than answering false, when the signature does not even decrypt under the key.
    signed = false;
  }
  if (!signed) throw new CoreError('csr_signature_invalid', 'the CSR is not signed by the key it carries');
  const bits = publicKey.n.bitLength();
  if (bits < MIN_CSR_RSA_BITS)
    throw new CoreError('csr_key_too_weak', `the CSR's RSA key has ${bits} bits; at least ${MIN_CSR_RSA_BITS} are required`);
  return publicKey;
}

/**
 * An IP address as node-forge can encode it in a SAN: it reads no dotted IPv4 tail in an IPv6 address (so
 * ::ffff:198.18.7.3 is written ::ffff:c612:703, the same 16 bytes), and a zone (%eth0) names no address at all.
 */
function sanAddress(ip: string): string {
  if (ip.includes('%')) throw new ValidationError('addresses', `${ip}: an address with a zone cannot be named in a certificate`);
  const tail = isIP(ip) === 6 ? /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip) : null;
  if (!tail) return ip;
  const [a, b, c, d] = tail.slice(2).map(Number) as [number, number, number, number];
  return `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** The DNS and IP SANs of the names, each once, the host's name first. */
function subjectNames(names: ServiceNames): { commonName: string; dnsNames: string[]; ipAddresses: string[] } {
  for (const [field, value] of [
    ['service', names.service],
    ['hostName', names.hostName.toLowerCase()],
  ] as const) {
    const problem = labelProblem(value);
    if (problem) throw new ValidationError(field, `${field} ${JSON.stringify(value)}: ${problem}`);
  }
  const dnsNames = [names.hostName.toLowerCase()];
  const ipAddresses: string[] = [];
  for (const name of names.addresses) {
    if (isIP(name)) {
      const ip = sanAddress(name);
      if (!ipAddresses.includes(ip)) ipAddresses.push(ip);
    } else if (HOST_NAME.test(name)) {
      const dns = name.toLowerCase().replace(/\.$/, '');
      if (!dnsNames.includes(dns)) dnsNames.push(dns);
    } else {
      throw new ValidationError('addresses', `${JSON.stringify(name)} is neither an IP address nor a DNS name`);
    }
  }
  return { commonName: `${names.service}.${names.hostName.toLowerCase()}`, dnsNames, ipAddresses };
}

/** A request judged before any CA is touched: the CSR's verified key, and the names and life the manager gives. */
export interface ServiceCertificateRequest {
  publicKey: forge.pki.rsa.PublicKey;
  commonName: string;
  dnsNames: string[];
  ipAddresses: string[];
  days: number;
}

/** Refuses a bad CSR (csr_*) or bad names (invalid_field); else what signServiceRequest signs. */
export function serviceCertificateRequest(csrPem: string, names: ServiceNames, days = SERVICE_CERTIFICATE_DAYS): ServiceCertificateRequest {
  const publicKey = verifiedCsrKey(csrPem);
  if (!(days > 0)) throw new ValidationError('days', 'a certificate lives a positive number of days');
  return { publicKey, ...subjectNames(names), days };
}

/**
 * Signs with the cluster's service CA for the names of the request (not the CSR's): CN <service>.<host>, DNS and
 * IP SANs, server and client authentication (etcd's peers and its client-cert-auth need both), a random serial.
 */
export function signServiceRequest(ca: ServiceCa, request: ServiceCertificateRequest, now: Date): SignedServiceCertificate {
  const { commonName, dnsNames, ipAddresses } = request;
  const cert = forge.pki.createCertificate();
  cert.publicKey = request.publicKey;
  cert.serialNumber = newSerial();
  cert.validity.notBefore = new Date(now.getTime() - CLOCK_SKEW_MS);
  cert.validity.notAfter = new Date(now.getTime() + request.days * DAY);
  cert.setSubject([
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'Navin Console' },
  ]);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        ...dnsNames.map((value) => ({ type: 2, value })),
        // node-forge takes an IP SAN as text (v4 or v6) and encodes its bytes.
        ...ipAddresses.map((ip) => ({ type: 7, ip })),
      ],
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.keyIdentifier() },
  ]);
  ca.sign(cert);
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
  return {
    serial: ledgerSerial(cert.serialNumber),
    certPem: forge.pki.certificateToPem(cert),
    subject: commonName,
    dnsNames,
    ipAddresses,
    notBefore: cert.validity.notBefore,
    notAfter: cert.validity.notAfter,
    fingerprintSha256: createHash('sha256').update(der).digest('hex'),
  };
}

/** signServiceRequest of a CSR and names judged on the spot. */
export function signServiceCsr(
  ca: ServiceCa,
  csrPem: string,
  names: ServiceNames,
  opts: { now: Date; days?: number },
): SignedServiceCertificate {
  return signServiceRequest(ca, serviceCertificateRequest(csrPem, names, opts.days), opts.now);
}
