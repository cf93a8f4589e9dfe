// The RSA key material of the manager's certificate authorities: a new key, a certificate serial, and a CA key
// sealed at rest by the KeyProtector and opened again, shared by the manager CA and the per-cluster service CAs.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import type { KeyProtector } from './protector';

export interface RsaKey {
  forgeKey: forge.pki.rsa.PrivateKey;
  publicKey: forge.pki.rsa.PublicKey;
  /** PKCS#8 PEM: sealed before it is stored, never returned by an API. */
  pem: string;
}

export function newRsaKey(bits: number): RsaKey {
  // node:crypto generates the key natively; node-forge only builds and signs the certificates.
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: bits,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const forgeKey = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { forgeKey, publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e), pem: privateKey };
}

/** 16 random bytes, hex, the first bit cleared: X.509 wants a positive serial of at most 20 bytes. */
export function newSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}

/** The key as the store keeps it: its PEM sealed by the protector. */
export const sealPrivateKey = (protector: KeyProtector, key: RsaKey): Buffer => protector.seal(Buffer.from(key.pem));

/** A sealed key opened for signing (UnsealError when the master key is not the one that sealed it). */
export const openPrivateKey = (protector: KeyProtector, sealed: Uint8Array): forge.pki.rsa.PrivateKey =>
  forge.pki.privateKeyFromPem(protector.open(sealed).toString('utf8')) as forge.pki.rsa.PrivateKey;
