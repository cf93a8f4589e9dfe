// Both Ed25519 implementations against Wycheproof's verification vectors, and against each other.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Ed25519 } from '../../../main/wire/ed25519';
import { nodeEd25519 } from '../../../main/wire/ed25519-node';
import { nobleEd25519 } from '../../../main/wire/ed25519-noble';
import { fromHex } from '../../../main/wire/encoding';
import { readVector } from './vectors';

interface WycheproofCase {
  tcId: number;
  comment: string;
  flags: string[];
  msg: string;
  sig: string;
  result: 'valid' | 'invalid';
}
interface WycheproofFile {
  numberOfTests: number;
  testGroups: { publicKey: { pk: string }; tests: WycheproofCase[] }[];
}

const wycheproof = JSON.parse(readVector('ed25519', 'wycheproof_ed25519_test.json').toString('utf8')) as WycheproofFile;
const impls: Ed25519[] = [nodeEd25519, nobleEd25519];

describe.each(impls)('Ed25519 $name', (impl) => {
  it('accepts every Wycheproof valid case and rejects every invalid one (88 valid, 63 invalid, Ktv included)', () => {
    const counts = { valid: 0, invalid: 0, ktv: 0 };
    const wrong: string[] = [];
    for (const group of wycheproof.testGroups) {
      const pk = fromHex(group.publicKey.pk);
      for (const t of group.tests) {
        const accepted = impl.verify(pk, fromHex(t.msg), fromHex(t.sig));
        counts[t.result] += 1;
        if (t.flags.includes('Ktv')) counts.ktv += 1;
        if (accepted !== (t.result === 'valid')) wrong.push(`tcId ${t.tcId} (${t.result}, ${t.flags.join(',')}): ${t.comment}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(counts.valid + counts.invalid).toBe(wycheproof.numberOfTests);
    expect(counts).toEqual({ valid: 88, invalid: 63, ktv: 38 });
  });

  it('signs RFC 8032 test 1 to its known answer', () => {
    const seed = fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    expect(impl.publicKey(seed)).toEqual(fromHex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'));
    expect(impl.sign(seed, new Uint8Array())).toEqual(
      fromHex(
        'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
      ),
    );
  });

  it('answers false, never throws, for wrong lengths and non-byte inputs', () => {
    const seed = impl.generateSecretKey();
    const pub = impl.publicKey(seed);
    const msg = new Uint8Array([1, 2, 3]);
    const sig = impl.sign(seed, msg);
    expect(impl.verify(pub, msg, sig)).toBe(true);
    const bad: [unknown, unknown, unknown][] = [
      [pub.subarray(0, 31), msg, sig],
      [new Uint8Array([...pub, 0]), msg, sig],
      [pub, msg, sig.subarray(0, 63)],
      [pub, msg, new Uint8Array([...sig, 0])],
      [Array.from(pub), msg, sig],
      [pub, 'abc', sig],
      [pub, msg, null],
      [undefined, undefined, undefined],
    ];
    for (const [p, m, s] of bad) expect(impl.verify(p as Uint8Array, m as Uint8Array, s as Uint8Array)).toBe(false);
  });

  it('rejects a small-order public key even with a signature that satisfies the cofactored equation', () => {
    // A = identity, R = identity, S = 0: [8]SB = [8]R + [8]kA holds for every message.
    const identity = fromHex('0100000000000000000000000000000000000000000000000000000000000000');
    const sig = new Uint8Array(64);
    sig.set(identity, 0);
    expect(impl.verify(identity, new Uint8Array([42]), sig)).toBe(false);
  });

  it('generates distinct 32-byte seeds', () => {
    const a = impl.generateSecretKey();
    const b = impl.generateSecretKey();
    expect(a).toHaveLength(32);
    expect(a).not.toEqual(b);
  });
});

describe('node:crypto and @noble/ed25519 together', () => {
  it('produce byte-identical keys and signatures, and each verifies the other', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 512 }), (seed, msg) => {
        const pub = nodeEd25519.publicKey(seed);
        expect(nobleEd25519.publicKey(seed)).toEqual(pub);
        const byNode = nodeEd25519.sign(seed, msg);
        const byNoble = nobleEd25519.sign(seed, msg);
        expect(byNoble).toEqual(byNode);
        expect(nobleEd25519.verify(pub, msg, byNode)).toBe(true);
        expect(nodeEd25519.verify(pub, msg, byNoble)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('agree on rejecting a signature with one bit flipped', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 64 }),
        fc.nat({ max: 511 }),
        (seed, msg, bit) => {
          const pub = nodeEd25519.publicKey(seed);
          const sig = nodeEd25519.sign(seed, msg);
          sig[bit >> 3]! ^= 1 << (bit & 7);
          expect(nodeEd25519.verify(pub, msg, sig)).toBe(false);
          expect(nobleEd25519.verify(pub, msg, sig)).toBe(false);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('prepareSigner signs exactly like sign', () => {
    const seed = nodeEd25519.generateSecretKey();
    const msg = new Uint8Array([9, 8, 7]);
    expect(nodeEd25519.prepareSigner!(seed)(msg)).toEqual(nodeEd25519.sign(seed, msg));
  });
});
