// RFC 8785 canonical JSON against the cyberphone vectors, and the strict parser's refusals.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalBytes, canonicalize, MAX_DEPTH, parseJson } from '../../../main/wire/canonical-json';
import { toHex } from '../../../main/wire/encoding';
import { WireError } from '../../../main/wire/errors';
import { readVector, vectorPath } from './vectors';

const cases = readdirSync(vectorPath('jcs', 'input'))
  .filter((f) => f.endsWith('.json'))
  .sort();

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WireError);
    return (error as WireError).code;
  }
  return undefined;
}

describe('RFC 8785 vectors', () => {
  it('finds the six cyberphone cases', () => {
    expect(cases).toEqual(['arrays.json', 'french.json', 'structures.json', 'unicode.json', 'values.json', 'weird.json']);
  });

  it.each(cases)('%s parses and canonicalises to the bytes of output/ and outhex/', (name) => {
    const input = readVector('jcs', 'input', name).toString('utf8');
    const bytes = canonicalBytes(parseJson(input));
    expect(Buffer.from(bytes).equals(readVector('jcs', 'output', name))).toBe(true);
    const hex = readVector('jcs', 'outhex', name.replace(/\.json$/, '.txt'))
      .toString('utf8')
      .replace(/\s+/g, '')
      .toLowerCase();
    expect(toHex(bytes)).toBe(hex);
  });
});

describe('canonicalize', () => {
  it('serialises numbers as ECMAScript Number.prototype.toString does, -0 as 0', () => {
    expect(canonicalize([-0, 0, 1e21, 1e-7, 0.000001, 2 ** 53 + 1, Number('333333333.33333329'), 5e-324, -1.7976931348623157e308])).toBe(
      '[0,0,1e+21,1e-7,0.000001,9007199254740992,333333333.3333333,5e-324,-1.7976931348623157e+308]',
    );
  });

  it('orders keys by UTF-16 code units, not code points or locale', () => {
    // U+1F600 is D83D DE00 in UTF-16, so it sorts before U+FFFF although its code point is larger.
    expect(canonicalize({ '\uffff': 1, '\u{1f600}': 2, b: 3, B: 4, é: 5 })).toBe('{"B":4,"b":3,"é":5,"😀":2,"\uffff":1}');
  });

  it('escapes only what JCS escapes', () => {
    expect(canonicalize('\u0000\u001f\b\t\n\f\r"\\/\u007f\u2028</script>')).toBe(
      '"\\u0000\\u001f\\b\\t\\n\\f\\r\\"\\\\/\u007f\u2028</script>"',
    );
  });

  it('keeps a "__proto__" key as data through parse and canonicalise', () => {
    const value = parseJson('{"__proto__":{"x":1},"a":2}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(canonicalize(value)).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it('refuses NaN and the infinities with jcs_non_finite', () => {
    for (const n of [NaN, Infinity, -Infinity]) expect(codeOf(() => canonicalize({ n }))).toBe('jcs_non_finite');
  });

  it('refuses lone surrogates in values and keys with jcs_lone_surrogate', () => {
    expect(codeOf(() => canonicalize('a\ud800'))).toBe('jcs_lone_surrogate');
    expect(codeOf(() => canonicalize({ '\udc00x': 1 }))).toBe('jcs_lone_surrogate');
    expect(canonicalize('\ud83d\ude00')).toBe('"😀"');
  });

  it('refuses values that have no JSON form with jcs_unsupported_type', () => {
    const unsupported: unknown[] = [
      undefined,
      () => 1,
      1n,
      Symbol('s'),
      { a: undefined },
      [undefined],
      new Date(0),
      new Map(),
      new Uint8Array(1),
    ];
    for (const value of unsupported) expect(codeOf(() => canonicalize(value))).toBe('jcs_unsupported_type');
  });

  it('refuses cycles and excessive depth instead of overflowing the stack', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(codeOf(() => canonicalize(cyclic))).toBe('jcs_cycle');
    let deep: unknown = 1;
    for (let i = 0; i < MAX_DEPTH + 1; i++) deep = [deep];
    expect(codeOf(() => canonicalize(deep))).toBe('jcs_too_deep');
    const shared = { x: 1 };
    expect(canonicalize([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

describe('parseJson', () => {
  it('reads what JSON.parse reads for valid JSON', () => {
    const text = ' {"a":[1,-2.5e3,true,false,null,"x\\u00e9\\ud83d\\ude00\\n"],"b":{},"c":[]} ';
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it('refuses duplicate keys with jcs_duplicate_key, also nested', () => {
    expect(codeOf(() => parseJson('{"a":1,"a":2}'))).toBe('jcs_duplicate_key');
    expect(codeOf(() => parseJson('{"x":{"a":1,"\\u0061":2}}'))).toBe('jcs_duplicate_key');
  });

  it('refuses numbers that overflow to Infinity with jcs_number_out_of_range', () => {
    expect(codeOf(() => parseJson('1e400'))).toBe('jcs_number_out_of_range');
    expect(codeOf(() => parseJson('[-1e400]'))).toBe('jcs_number_out_of_range');
  });

  it('refuses lone surrogates, escaped or raw, with jcs_lone_surrogate', () => {
    expect(codeOf(() => parseJson('"\\ud800"'))).toBe('jcs_lone_surrogate');
    expect(codeOf(() => parseJson('"\\udc00\\ud800"'))).toBe('jcs_lone_surrogate');
    expect(codeOf(() => parseJson('{"\ud800":1}'))).toBe('jcs_lone_surrogate');
  });

  it('refuses everything that is not strict JSON with json_invalid', () => {
    const invalid = [
      '',
      ' ',
      '{',
      '[1,]',
      '{"a":1,}',
      '01',
      '1.',
      '.5',
      '+1',
      '-',
      '1e',
      'NaN',
      'Infinity',
      'tru',
      'nul',
      "'a'",
      '"\t"',
      '"\\x"',
      '"\\u12"',
      '"abc',
      '{a:1}',
      '{"a" 1}',
      '[1 2]',
      '1 2',
      '\ufeff{}',
      '/*c*/{}',
      '{"a":1}x',
    ];
    for (const text of invalid)
      expect(
        codeOf(() => parseJson(text)),
        JSON.stringify(text),
      ).toBe('json_invalid');
  });

  it('refuses nesting deeper than MAX_DEPTH with json_invalid rather than a stack overflow', () => {
    expect(codeOf(() => parseJson('['.repeat(100_000)))).toBe('json_invalid');
    expect(parseJson('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH))).toBeInstanceOf(Array);
  });
});
