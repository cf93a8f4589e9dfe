// Ed25519 on node:crypto (OpenSSL): the fast implementation for the manager, the CLI and the agent. Node only;
// it deliberately does not import @noble, so Node processes never load the portable one.
import { createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import type { Ed25519 } from './ed25519';
import { isBytes, strictProblem } from './ed25519-strict';

// RFC 8410 DER headers: raw keys become KeyObjects by prefixing them, with no ASN.1 library.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function privateKey(seed: Uint8Array): KeyObject {
  if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new TypeError('an Ed25519 seed is 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

// Building a KeyObject costs about as much as a verification, and verifiers see the same few trusted keys
// over and over: a small cache of public keys (never of private ones) pays for itself.
const PUBLIC_CACHE_SIZE = 64;
const publicCache = new Map<string, KeyObject>();

function publicKeyObject(raw: Uint8Array): KeyObject {
  const id = Buffer.from(raw.buffer, raw.byteOffset, raw.length).toString('hex');
  let key = publicCache.get(id);
  if (key === undefined) {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    if (publicCache.size >= PUBLIC_CACHE_SIZE) publicCache.delete(publicCache.keys().next().value!);
    publicCache.set(id, key);
  }
  return key;
}

// Plain Uint8Array copies: Buffers from the pool share memory with unrelated data and compare unequal to
// the Uint8Arrays the noble implementation returns.
const bytes = (b: Buffer): Uint8Array => new Uint8Array(b);

export const nodeEd25519: Ed25519 = {
  name: 'node:crypto',
  generateSecretKey: () => bytes(randomBytes(32)),
  publicKey(seed) {
    return bytes(createPublicKey(privateKey(seed)).export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length));
  },
  sign(seed, msg) {
    return bytes(sign(null, msg, privateKey(seed)));
  },
  prepareSigner(seed) {
    const key = privateKey(seed);
    return (msg) => bytes(sign(null, msg, key));
  },
  verify(publicKey, msg, signature) {
    try {
      if (!isBytes(msg) || strictProblem(publicKey, signature) !== null) return false;
      return verify(null, msg, publicKeyObject(publicKey), signature);
    } catch {
      return false;
    }
  },
};
