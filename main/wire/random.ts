// Randomness for nonces and command ids from the Web Crypto API, which Node 20 and the renderer both have,
// so neither side needs node:crypto to mint them.
import { toBase64url, toHex } from './encoding';
import { WireError } from './errors';

/** The minimum nonce size: 128 random bits make a collision between honest commands negligible. */
export const MIN_NONCE_BYTES = 16;
/** The maximum nonce size a verifier accepts, so a nonce store's rows stay small. */
export const MAX_NONCE_BYTES = 64;

// Random bytes drawn 4 KiB at a time and handed out once each (as Node's randomUUID does): one
// getRandomValues call costs about as much as the rest of building a command, and a fan-out mints thousands.
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let used = 0;

export function randomBytes(length: number): Uint8Array {
  if (length > POOL_BYTES) {
    const out = new Uint8Array(length);
    globalThis.crypto.getRandomValues(out);
    return out;
  }
  if (used + length > pool.length) {
    pool = new Uint8Array(POOL_BYTES);
    globalThis.crypto.getRandomValues(pool);
    used = 0;
  }
  const out = pool.slice(used, used + length);
  used += length;
  return out;
}

/** A fresh nonce: base64url (no padding) of `bytes` random bytes, 16 by default. */
export function newNonce(bytes: number = MIN_NONCE_BYTES): string {
  if (!Number.isInteger(bytes) || bytes < MIN_NONCE_BYTES || bytes > MAX_NONCE_BYTES) {
    throw new WireError('payload_invalid', `a nonce is ${MIN_NONCE_BYTES} to ${MAX_NONCE_BYTES} random bytes`);
  }
  return toBase64url(randomBytes(bytes));
}

/** A random RFC 9562 version 4 UUID (crypto.randomUUID exists only in secure browser contexts). */
export function newCommandId(): string {
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = toHex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
