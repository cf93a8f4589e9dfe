// Ed25519 on @noble/ed25519 (pure JS): the portable implementation, for the renderer's offline verification
// and anywhere node:crypto is absent. Imports nothing from Node, so it bundles for the browser as is.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import type { Ed25519 } from './ed25519';
import { isBytes, strictProblem } from './ed25519-strict';

// noble v3's synchronous API needs a SHA-512 wired in; its README's way is this assignment.
ed.hashes.sha512 = sha512;

export const nobleEd25519: Ed25519 = {
  name: '@noble/ed25519',
  generateSecretKey: () => ed.utils.randomSecretKey(),
  publicKey: (seed) => ed.getPublicKey(seed),
  sign: (seed, msg) => ed.sign(msg, seed),
  verify(publicKey, msg, signature) {
    try {
      if (!isBytes(msg) || strictProblem(publicKey, signature) !== null) return false;
      // zip215: false is noble's RFC 8032 branch (canonical points, small-order keys refused); the default
      // ZIP-215 rules accept signatures that OpenSSL refuses.
      return ed.verify(signature, msg, publicKey, { zip215: false });
    } catch {
      return false;
    }
  },
};
