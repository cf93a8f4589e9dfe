// A new RSA key and its PKCS#10 certificate request (CSR), written in DER by hand on node:crypto so that the agents
// carry no certificate library: the manager reads only the CSR's key and checks its signature.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { RENEWAL_KEY_BITS } from '../main/wire/certificate-renewal';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const der = (tag: number, ...parts: Buffer[]): Buffer => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};

const SEQUENCE = 0x30;
const SET = 0x31;
/** id-at-commonName (2.5.4.3) and sha256WithRSAEncryption (1.2.840.113549.1.1.11), encoded. */
const OID_CN = Buffer.from('0603550403', 'hex');
const OID_SHA256_RSA = Buffer.from('06092a864886f70d01010b', 'hex');
const NULL = Buffer.from('0500', 'hex');

/** A CSR in PEM signed by the private `key`, its subject one CN (informative: the manager names the certificate by the caller). */
export function certificateRequest(key: KeyObject, commonName: string): string {
  const publicKey = createPublicKey(key);
  const subject = der(SEQUENCE, der(SET, der(SEQUENCE, OID_CN, der(0x0c, Buffer.from(commonName, 'utf8')))));
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const info = der(SEQUENCE, Buffer.from('020100', 'hex'), subject, spki, Buffer.from('a000', 'hex'));
  const signature = sign('sha256', info, key);
  const csr = der(SEQUENCE, info, der(SEQUENCE, OID_SHA256_RSA, NULL), der(0x03, Buffer.from([0]), signature));
  const lines = csr.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE REQUEST-----\n${lines.join('\n')}\n-----END CERTIFICATE REQUEST-----\n`;
}

/** A new RSA key (PKCS#8 PEM) and a CSR for it. */
export function newKeyAndRequest(commonName: string): { keyPem: string; csrPem: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: RENEWAL_KEY_BITS });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { keyPem, csrPem: certificateRequest(createPrivateKey(keyPem), commonName) };
}
