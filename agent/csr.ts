// The agents' one PKCS#10 certificate request builder, on node-forge as the manager's CA: the renewal of an agent's
// own client certificate (a CN alone) and a service key's request on a host (tls.csr: a CN and its SANs).
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { RENEWAL_KEY_BITS } from '../main/wire/certificate-renewal';

export interface CsrNames {
  common_name: string;
  /** Asked as a subjectAltName extension request, with ip_addresses; neither given, the request has no extension. */
  dns_names?: readonly string[];
  ip_addresses?: readonly string[];
}

/** An IPv6 address in the one form node-forge encodes right (no embedded IPv4, "::" expanded by it alone). */
const forgeIp = (ip: string): string => (ip.includes(':') ? new URL(`http://[${ip}]/`).hostname.slice(1, -1) : ip);

/** The request as PEM, for an RSA private key given as PEM (node-forge signs only with RSA). */
export function certificationRequestPem(privateKeyPem: string, names: CsrNames): string {
  const key = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  csr.setSubject([{ name: 'commonName', value: names.common_name }]);
  const altNames = [
    ...(names.dns_names ?? []).map((value) => ({ type: 2, value })),
    ...(names.ip_addresses ?? []).map((ip) => ({ type: 7, ip: forgeIp(ip) })),
  ];
  // An empty subjectAltName is invalid (RFC 5280 wants one name at least): no names, no extension.
  if (altNames.length > 0) csr.setAttributes([{ name: 'extensionRequest', extensions: [{ name: 'subjectAltName', altNames }] }]);
  csr.sign(key, forge.md.sha256.create());
  return forge.pki.certificationRequestToPem(csr);
}

/** A new RSA key (PKCS#8 PEM) and a CSR for it naming only `commonName` (informative: the manager names the certificate by the caller). */
export function newKeyAndRequest(commonName: string): { keyPem: string; csrPem: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: RENEWAL_KEY_BITS });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { keyPem, csrPem: certificationRequestPem(keyPem, { common_name: commonName }) };
}
