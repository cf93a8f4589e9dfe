// The strict pre-checks both implementations share: each refusal shown on its own, and the small-order
// table proven complete against noble's point arithmetic.
import * as ed from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { nodeEd25519 } from '../../../main/wire/ed25519-node';
import { nobleEd25519 } from '../../../main/wire/ed25519-noble';
import { strictProblem } from '../../../main/wire/ed25519-strict';

const P = (1n << 255n) - 19n;
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

function le(n: bigint, length = 32): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
}
function fromLe(b: Uint8Array): bigint {
  return b.reduceRight((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
}

const seed = nodeEd25519.generateSecretKey();
const pub = nodeEd25519.publicKey(seed);
const msg = new TextEncoder().encode('strict');
const sig = nodeEd25519.sign(seed, msg);

describe('strict Ed25519 pre-checks', () => {
  it('pass an honest signature', () => {
    expect(strictProblem(pub, sig)).toBeNull();
  });

  it('refuse S + L, the malleated twin of a valid signature, in both implementations', () => {
    const twin = sig.slice();
    twin.set(le(fromLe(sig.subarray(32)) + L), 32);
    expect(strictProblem(pub, twin)).toMatch(/S is not below/);
    expect(nodeEd25519.verify(pub, msg, twin)).toBe(false);
    expect(nobleEd25519.verify(pub, msg, twin)).toBe(false);
  });

  it('refuse non-canonical encodings of A and R (y >= p, or x = 0 with the sign bit set)', () => {
    const yAtLeastP = le(P + 1n);
    const negativeZero = le(1n);
    negativeZero[31]! |= 0x80;
    expect(strictProblem(yAtLeastP, sig)).toMatch(/public key encoding/);
    expect(strictProblem(negativeZero, sig)).toMatch(/public key encoding/);
    const badR = sig.slice();
    badR.set(yAtLeastP, 0);
    expect(strictProblem(pub, badR)).toMatch(/R encoding/);
  });

  it('refuse exactly the eight small-order public keys', () => {
    const torsion = new Set<string>();
    // A point of order 8 generates the whole torsion subgroup.
    const order8 = ed.Point.fromHex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a');
    let point = order8;
    for (let i = 0; i < 8; i++) {
      torsion.add(point.toHex());
      point = point.add(order8);
    }
    expect(torsion.size).toBe(8);
    for (const hex of torsion) {
      const key = ed.etc.hexToBytes(hex);
      expect(ed.Point.fromBytes(key).isSmallOrder()).toBe(true);
      expect(strictProblem(key, sig)).toMatch(/small order/);
    }
  });
});
