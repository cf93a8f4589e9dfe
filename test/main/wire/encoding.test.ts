// base64url, base64, hex and key ids: byte-exact with Node's own codecs, and strict when decoding.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fromBase64, fromBase64url, fromHex, keyId, toBase64, toBase64url, toHex } from '../../../main/wire/encoding';
import { WireError } from '../../../main/wire/errors';

describe('encodings', () => {
  it('encode exactly as Buffer does and decode back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const buf = Buffer.from(bytes);
        expect(toBase64url(bytes)).toBe(buf.toString('base64url'));
        expect(toBase64(bytes)).toBe(buf.toString('base64'));
        expect(toHex(bytes)).toBe(buf.toString('hex'));
        expect(fromBase64url(toBase64url(bytes))).toEqual(bytes);
        expect(fromBase64(toBase64(bytes))).toEqual(bytes);
        expect(fromHex(toHex(bytes))).toEqual(bytes);
      }),
      { numRuns: 200 },
    );
  });

  it('base64url decoding refuses padding, the standard alphabet, whitespace, impossible lengths and spare bits', () => {
    for (const bad of ['AA==', 'AA=', 'a+b/', 'ab cd', 'A', 'AAAAA', 'AB', 'AAB', 'é']) {
      expect(() => fromBase64url(bad), bad).toThrow(WireError);
    }
    expect(fromBase64url('AA')).toEqual(Uint8Array.of(0));
    expect(fromBase64url('')).toEqual(new Uint8Array());
  });

  it('base64 decoding requires exact padding and refuses the URL alphabet', () => {
    for (const bad of ['AA', 'AA=', 'A===', '====', 'AB==', '-_==', 'AA==AA==']) expect(() => fromBase64(bad), bad).toThrow(WireError);
    expect(fromBase64('AA==')).toEqual(Uint8Array.of(0));
  });

  it('hex decoding accepts either case and refuses odd lengths and non-hex', () => {
    expect(fromHex('aBcD')).toEqual(Uint8Array.of(0xab, 0xcd));
    for (const bad of ['abc', 'zz', '0x00', ' 00']) expect(() => fromHex(bad), bad).toThrow(WireError);
  });

  it('keyId is the first 16 hex digits of sha256 over the 32 key bytes', () => {
    const pub = Uint8Array.from({ length: 32 }, (_, i) => i);
    expect(keyId(pub)).toBe(createHash('sha256').update(pub).digest('hex').slice(0, 16));
    expect(keyId(pub)).toMatch(/^[0-9a-f]{16}$/);
    expect(() => keyId(pub.subarray(1))).toThrow(WireError);
  });
});
