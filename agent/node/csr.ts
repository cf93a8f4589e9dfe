// A PKCS#10 certificate request (node-forge, as the manager's CA uses): the subject's common name, and its host
// names and IP addresses as a subjectAltName extension request, signed with the key it is for.
import forge from 'node-forge';

export interface CsrNames {
  common_name: string;
  dns_names: readonly string[];
  ip_addresses: readonly string[];
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
    ...names.dns_names.map((value) => ({ type: 2, value })),
    ...names.ip_addresses.map((ip) => ({ type: 7, ip: forgeIp(ip) })),
  ];
  csr.setAttributes([{ name: 'extensionRequest', extensions: [{ name: 'subjectAltName', altNames }] }]);
  csr.sign(key, forge.md.sha256.create());
  return forge.pki.certificationRequestToPem(csr);
}
