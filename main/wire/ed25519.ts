// The one Ed25519 interface the wire contract signs and verifies through, so the portable implementation
// (@noble, for the renderer) and the fast one (node:crypto, for Node processes) are interchangeable.
export interface Ed25519 {
  /** A short label for logs and benchmarks. */
  readonly name: string;
  /** A fresh random 32-byte RFC 8032 seed (the private key). */
  generateSecretKey(): Uint8Array;
  /** The 32-byte public key of a seed. */
  publicKey(seed: Uint8Array): Uint8Array;
  /** The 64-byte deterministic signature of msg. */
  sign(seed: Uint8Array, msg: Uint8Array): Uint8Array;
  /** Strict RFC 8032 verification. Never throws: false for any bad length, encoding or signature. */
  verify(publicKey: Uint8Array, msg: Uint8Array, signature: Uint8Array): boolean;
  /**
   * Optional: a signing function bound to one seed, for implementations where preparing the key is costly
   * (node:crypto builds a KeyObject). createSigner uses it when present.
   */
  prepareSigner?(seed: Uint8Array): (msg: Uint8Array) => Uint8Array;
}
