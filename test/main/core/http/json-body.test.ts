// The one decoder of JSON bodies: what it refuses (with the reason in details) and what it lets through.
import { describe, expect, test } from 'vitest';
import { checkJsonValue, MAX_JSON_DEPTH, parseJsonBody } from '../../../../main/core/http/json-body';
import { wellFormedValue } from '../../../../main/core/well-formed';

const reason = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as { code: string; details: { reason: string } }).code + ':' + (e as { details: { reason: string } }).details.reason;
  }
};
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('parseJsonBody', () => {
  test('refuses lone surrogates in values and keys, invalid UTF-8, huge numbers, depth and syntax', () => {
    expect(reason(() => parseJsonBody(bytes('{"a":"\\ud800"}')))).toBe('invalid_json:lone_surrogate');
    expect(reason(() => parseJsonBody(bytes('{"\\udfff":1}')))).toBe('invalid_json:lone_surrogate');
    expect(reason(() => parseJsonBody(Uint8Array.from([0x22, 0xc3, 0x22])))).toBe('invalid_json:invalid_utf8');
    expect(reason(() => parseJsonBody(bytes('[-1e400]')))).toBe('invalid_json:number_out_of_range');
    expect(reason(() => parseJsonBody(bytes('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1))))).toBe(
      'invalid_json:too_deep',
    );
    expect(reason(() => parseJsonBody(bytes('{"a":1,}')))).toBe('invalid_json:syntax');
  });

  test('takes pairs, brackets inside strings, exactly the maximum depth and tiny numbers', () => {
    expect(parseJsonBody(bytes('{"a":"\\ud83d\\ude80 [[[[ \\" {{{"}'))).toEqual({ a: '🚀 [[[[ " {{{' });
    const deepest = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(() => parseJsonBody(bytes(deepest))).not.toThrow();
    expect(parseJsonBody(bytes('[1e-400, -0]'))).toEqual([0, -0]);
  });
});

describe('checkJsonValue (values from the IPC channel)', () => {
  test('refuses what structured clone carries but JSON has not', () => {
    expect(reason(() => checkJsonValue({ a: 'x\ud800' }))).toBe('invalid_json:lone_surrogate');
    expect(reason(() => checkJsonValue({ when: new Date() }))).toBe('invalid_json:not_json');
    expect(reason(() => checkJsonValue({ n: 10n }))).toBe('invalid_json:not_json');
    expect(reason(() => checkJsonValue([Number.NaN]))).toBe('invalid_json:number_out_of_range');
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(reason(() => checkJsonValue(deep))).toBe('invalid_json:too_deep');
  });

  test('lets plain values through, an absent (undefined) field included', () => {
    expect(() => checkJsonValue({ a: [1, 'b', null, true, { c: undefined }] })).not.toThrow();
    expect(() => checkJsonValue(undefined)).not.toThrow();
  });
});

test('wellFormedValue replaces lone surrogates and keeps __proto__ a plain key', () => {
  const v = wellFormedValue(JSON.parse('{"__proto__":{"x":"\\ud800"},"k\\udc00":["a\\ud800b"]}'));
  expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  expect(JSON.stringify(v)).toBe('{"__proto__":{"x":"\ufffd"},"k\ufffd":["a\ufffdb"]}');
});
