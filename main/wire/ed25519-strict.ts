// Strict RFC 8032 checks applied before either implementation verifies, so both accept exactly the same
// signatures whatever their library's own leniency. Pure JS (bigint only), safe for the browser bundle.
//
// Checks added, and why:
// - exact lengths (32-byte key, 64-byte signature) and real Uint8Arrays: noble throws on a truncated or
//   padded signature (Wycheproof tcId 30-41) and node:crypto on odd key types; verify must answer false.
// - S < L (RFC 8032 section 5.1.7 step 1): otherwise S + L is a second valid signature (malleability).
//   OpenSSL and noble both check it today; checking here makes it independent of their versions.
// - canonical encodings of R and A (y < p, and no "negative zero" x, i.e. sign bit set when x = 0): a
//   non-canonical encoding is a second spelling of the same point, hence a second valid signature or key.
//   noble checks this only with { zip215: false }: its default ZIP-215 mode accepts Wycheproof tcId 151.
// - A not of small order (the 8 torsion points): any signature verifies for such a key under the cofactored
//   equation noble uses, and none or some under OpenSSL's cofactorless one; refusing them (as libsodium and
//   noble's strict mode do) keeps the two implementations in agreement.
// Residual difference, by design not covered: a key with a torsion component (not small order, not in the
//   prime-order subgroup) lets its holder craft signatures that the cofactored check accepts and the
//   cofactorless one refuses. Only a trusted key's holder can do that, and our keys come from seeds.

const P = (1n << 255n) - 19n;
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

// y coordinates of the small-order points (with either x sign): 0 (order 4), 1 (identity), p-1 (order 2)
// and the two y values of the order-8 points.
const SMALL_ORDER_Y = new Set<bigint>([
  0n,
  1n,
  P - 1n,
  2707385501144840649318225287225658788936804267575313519463743609750303402022n,
  55188659117513257062467267217118295137698188065244968500265048394206261417927n,
]);

function littleEndian(bytes: Uint8Array, from: number, to: number): bigint {
  let n = 0n;
  for (let i = to - 1; i >= from; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

/** y of a 32-byte point encoding, or null if the encoding is not canonical. */
function canonicalY(bytes: Uint8Array, offset: number): bigint | null {
  const signBit = bytes[offset + 31]! >> 7;
  const y = littleEndian(bytes, offset, offset + 32) & ((1n << 255n) - 1n);
  if (y >= P) return null;
  // x = 0 exactly when y = ±1; its only encoding has the sign bit clear.
  if (signBit === 1 && (y === 1n || y === P - 1n)) return null;
  return y;
}

/** Why a (public key, signature) pair fails the strict pre-checks, or null if it passes them. */
export function strictProblem(publicKey: unknown, signature: unknown): string | null {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) return 'public key is not 32 bytes';
  if (!(signature instanceof Uint8Array) || signature.length !== 64) return 'signature is not 64 bytes';
  const a = canonicalY(publicKey, 0);
  if (a === null) return 'public key encoding is not canonical';
  if (SMALL_ORDER_Y.has(a)) return 'public key is of small order';
  if (canonicalY(signature, 0) === null) return 'R encoding is not canonical';
  if (littleEndian(signature, 32, 64) >= L) return 'S is not below the group order';
  return null;
}

/** True when msg is a byte array; verify refuses anything else rather than coercing it. */
export function isBytes(msg: unknown): msg is Uint8Array {
  return msg instanceof Uint8Array;
}
