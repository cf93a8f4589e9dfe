// The TLS key of a service, made and kept on the host (a plan's tls.csr): RSA 2048 by node:crypto, 0600 and the
// agent's (root's on a host). Only its public half is ever described: the public key's sha256 and size.
import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';

/** The manager parses only RSA requests (node-forge); 2048 bits is the floor it signs. */
const RSA_BITS = 2048;
export const KEY_MODE = 0o600;
/** A PEM RSA key is a few KiB: anything far larger at the key's path is not one. */
const MAX_KEY_BYTES = 64 << 10;

export interface PublicKeyDigest {
  /** sha256 hex of the public key's SPKI DER. */
  sha256: string;
  /** Byte length of that DER. */
  size: number;
}

const makeRsa = promisify(generateKeyPair);

/** A new RSA key as PKCS#8 PEM, made off the event loop so the agent keeps polling meanwhile. */
export async function newRsaKey(): Promise<string> {
  const { privateKey } = await makeRsa('rsa', {
    modulusLength: RSA_BITS,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return privateKey;
}

export function publicKeyDigest(privateKey: KeyObject): PublicKeyDigest {
  const der = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return { sha256: createHash('sha256').update(der).digest('hex'), size: der.length };
}

/** The private key in these bytes, or null when they hold none. */
export function parsePrivateKey(data: Buffer | string): KeyObject | null {
  try {
    return createPrivateKey(data);
  } catch {
    return null;
  }
}

/**
 * The key at a real path when it may be kept: a regular file (never through a symlink), mode 0600 and this
 * process's, holding an RSA key of at least 2048 bits. Anything else is replaced by a new key: a key others
 * could have read, or one the manager cannot sign for, is not worth keeping.
 */
export function keepableKey(real: string): { pem: string; key: KeyObject } | null {
  let pem: string;
  try {
    const st = lstatSync(real);
    if (!st.isFile() || st.size > MAX_KEY_BYTES || (st.mode & 0o777) !== KEY_MODE || st.uid !== (process.getuid?.() ?? st.uid)) return null;
    pem = readFileSync(real, 'utf8');
  } catch {
    return null;
  }
  const key = parsePrivateKey(pem);
  const bits = key?.asymmetricKeyDetails?.modulusLength ?? 0;
  return key && key.asymmetricKeyType === 'rsa' && bits >= RSA_BITS ? { pem, key } : null;
}
