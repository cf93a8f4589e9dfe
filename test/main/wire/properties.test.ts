// Properties of the parser and the verifier under arbitrary input: they answer, never throw past the API,
// give exactly one known code, and no mutation of a signed document verifies.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalize, parseJson } from '../../../main/wire/canonical-json';
import { nodeEd25519 } from '../../../main/wire/ed25519-node';
import { nobleEd25519 } from '../../../main/wire/ed25519-noble';
import { MemoryNonceStore, signDocument, verifyDocument, VERIFY_CODES, type VerifyResult } from '../../../main/wire/envelope';
import { isWireError } from '../../../main/wire/errors';
import { command, options, signer } from './fixtures';

const RUNS = { numRuns: 200 };
const PARSE_CODES = ['json_invalid', 'jcs_duplicate_key', 'jcs_number_out_of_range', 'jcs_lone_surrogate'];

function expectOneKnownAnswer(result: VerifyResult<unknown>): void {
  if (result.ok) {
    expect(Object.keys(result).sort()).toEqual(['ok', 'payload']);
  } else {
    expect(Object.keys(result).sort()).toEqual(['code', 'message', 'ok']);
    expect(VERIFY_CODES).toContain(result.code);
    expect(typeof result.message).toBe('string');
  }
}

const signedText = JSON.stringify(command());

describe('parseJson', () => {
  it('either returns what JSON.parse returns or throws one of its WireError codes, for any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary' }), fc.json(), fc.string({ unit: fc.constantFrom(...'{}[]",:0123456789.eE+-tfnrulas\\ ') })),
        (text) => {
          let native: { value: unknown } | undefined;
          try {
            native = { value: JSON.parse(text) };
          } catch {
            native = undefined;
          }
          try {
            const value = parseJson(text);
            expect(native).toBeDefined();
            expect(value).toEqual(native!.value);
          } catch (error) {
            expect(isWireError(error)).toBe(true);
            expect(PARSE_CODES).toContain((error as { code: string }).code);
          }
        },
      ),
      RUNS,
    );
  });

  it('round-trips any JSON value through canonicalize: parse(canonical) canonicalises to itself', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const canonical = canonicalize(value);
        expect(canonicalize(parseJson(canonical))).toBe(canonical);
        expect(canonical).toBe(canonicalize(JSON.parse(JSON.stringify(value))));
      }),
      RUNS,
    );
  });
});

describe('verifyDocument under arbitrary input', () => {
  it('answers ok or exactly one known code for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => expectOneKnownAnswer(verifyDocument(text, options()))),
      RUNS,
    );
  });

  it('answers exactly one known code for any value, JSON or not, bare or wrapped as an envelope', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withNullPrototype: true,
          withSparseArray: true,
        }),
        fc.string(),
        (value, sig) => {
          for (const input of [
            value,
            { payload: value, signature: sig },
            { payload: { ...command().payload, args: value }, signature: sig },
          ]) {
            const result = verifyDocument(input, options());
            expectOneKnownAnswer(result);
            expect(result.ok).toBe(false);
          }
        },
      ),
      RUNS,
    );
  });

  it('never accepts a signed command with one character of its text changed', () => {
    fc.assert(
      fc.property(fc.nat({ max: signedText.length - 1 }), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }), (index, ch) => {
        const mutated = signedText.slice(0, index) + ch + signedText.slice(index + 1);
        fc.pre(mutated !== signedText);
        const result = verifyDocument(mutated, options());
        expectOneKnownAnswer(result);
        expect(result.ok).toBe(false);
      }),
      RUNS,
    );
  });

  it('never accepts a signed document whose payload gained, lost or changed a member, with either implementation', () => {
    const doc = signDocument({ type: 'report', verdict: 'PASS', lines: [{ check: 'a', ok: true }], count: 3 }, signer);
    const keys = Object.keys(doc.payload);
    fc.assert(
      fc.property(fc.constantFrom(...keys, 'extra'), fc.option(fc.jsonValue(), { nil: undefined }), fc.boolean(), (key, value, noble) => {
        const payload: Record<string, unknown> = { ...doc.payload };
        if (value === undefined) delete payload[key];
        else payload[key] = value;
        const changed = canonicalize(payload) !== canonicalize(doc.payload);
        fc.pre(changed);
        const result = verifyDocument(
          { payload, signature: doc.signature },
          options({
            impl: noble ? nobleEd25519 : nodeEd25519,
            expectedType: 'report',
            expectedTarget: undefined,
            expectedTenant: undefined,
          }),
        );
        expectOneKnownAnswer(result);
        expect(result.ok).toBe(false);
      }),
      RUNS,
    );
  });

  it('never accepts a signed command with any signature bit flipped, and never records its nonce', () => {
    const doc = command();
    const nonceStore = new MemoryNonceStore();
    fc.assert(
      fc.property(
        fc.nat({ max: doc.signature.length - 1 }),
        fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
        (index, ch) => {
          const signature = doc.signature.slice(0, index) + ch + doc.signature.slice(index + 1);
          fc.pre(signature !== doc.signature);
          const result = verifyDocument({ payload: doc.payload, signature }, options({ nonceStore }));
          expect(result.ok).toBe(false);
          if (!result.ok) expect(['malformed', 'signature_invalid']).toContain(result.code);
        },
      ),
      RUNS,
    );
    expect(nonceStore.size).toBe(0);
  });

  it('answers malformed, not an exception, when the options themselves misbehave', () => {
    const hostileStore = {
      seen: () => {
        throw new Error('db locked');
      },
      remember: () => undefined,
      prune: () => 0,
    };
    expect(verifyDocument(command(), options({ nonceStore: hostileStore }))).toMatchObject({ ok: false, code: 'malformed' });
    const hostileImpl = {
      ...nodeEd25519,
      verify: () => {
        throw new Error('bad impl');
      },
    };
    expect(verifyDocument(command(), options({ impl: hostileImpl }))).toMatchObject({ ok: false, code: 'malformed' });
    const proxy = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    expect(verifyDocument(proxy, options())).toMatchObject({ ok: false, code: 'malformed' });
  });
});
