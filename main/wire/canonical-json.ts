// RFC 8785 (JCS) canonical JSON: the exact bytes every signature in the wire contract covers, plus the strict
// parser that reads documents before they are verified. Portable: no Node APIs, runs in the renderer too.
import { WireError } from './errors';

// Deep enough for any document we sign, shallow enough that neither function can overflow the stack.
export const MAX_DEPTH = 512;

// With the u flag a well-formed pair is one code point, so only lone surrogates match.
const LONE_SURROGATE = /\p{Cs}/u;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const encoder = new TextEncoder();

function serializeString(s: string): string {
  if (LONE_SURROGATE.test(s))
    throw new WireError('jcs_lone_surrogate', 'a string holds a lone UTF-16 surrogate, which has no UTF-8 encoding');
  // Once lone surrogates are excluded, ES2019 JSON.stringify escapes exactly as RFC 8785 section 3.2.2.2 says
  // (\b \t \n \f \r \" \\, other controls as lowercase \u00xx, everything else verbatim), and natively.
  return JSON.stringify(s);
}

function serialize(value: unknown, depth: number, ancestors: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return serializeString(value);
    case 'number':
      if (!Number.isFinite(value)) throw new WireError('jcs_non_finite', `${String(value)} has no JSON representation`);
      // Number.prototype.toString is the serialisation RFC 8785 section 3.2.2.3 mandates; it also turns -0 into "0".
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      throw new WireError('jcs_unsupported_type', `a ${typeof value} has no JSON representation`);
  }
  if (value === null) return 'null';
  if (depth >= MAX_DEPTH) throw new WireError('jcs_too_deep', `nesting deeper than ${MAX_DEPTH} levels`);
  if (ancestors.has(value)) throw new WireError('jcs_cycle', 'the value contains a cycle');
  ancestors.add(value);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += serialize(value[i], depth + 1, ancestors);
    }
    out += ']';
  } else {
    // Dates, Maps, typed arrays and class instances would each need a convention of their own (toJSON, ...):
    // refusing them keeps "what is signed" equal to "what is written".
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
      throw new WireError('jcs_unsupported_type', 'only plain objects, arrays and JSON primitives can be canonicalised');
    const record = value as Record<string, unknown>;
    // The default sort compares UTF-16 code units, which is the order RFC 8785 section 3.2.3 requires.
    const keys = Object.keys(record).sort();
    out = '{';
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (i > 0) out += ',';
      out += serializeString(key) + ':' + serialize(record[key], depth + 1, ancestors);
    }
    out += '}';
  }
  ancestors.delete(value);
  return out;
}

/**
 * The RFC 8785 canonical form of a JSON value. Throws WireError: jcs_non_finite, jcs_lone_surrogate,
 * jcs_unsupported_type (undefined anywhere, functions, bigints, symbols, non-plain objects), jcs_cycle, jcs_too_deep.
 */
export function canonicalize(value: unknown): string {
  return serialize(value, 0, new Set());
}

/** The UTF-8 bytes of the canonical form: what an Ed25519 signature of the wire contract covers. */
export function canonicalBytes(value: unknown): Uint8Array {
  return encoder.encode(canonicalize(value));
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * A strict RFC 8259 parser for documents about to be verified: one value, no BOM, no comments, no trailing
 * commas. Where JSON.parse would silently pick one reading, this refuses: duplicate keys (jcs_duplicate_key),
 * numbers beyond IEEE 754 range (jcs_number_out_of_range), lone surrogates (jcs_lone_surrogate). Anything
 * else that is not JSON throws json_invalid.
 */
export function parseJson(text: string): unknown {
  if (typeof text !== 'string') throw new WireError('json_invalid', 'JSON text must be a string');
  let i = 0;

  const fail = (what: string): never => {
    throw new WireError('json_invalid', `${what} at offset ${i}`);
  };

  const skipWhitespace = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };

  const parseString = (): string => {
    i++; // opening quote
    let out = '';
    let start = i;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail('unescaped control character in string');
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(start, i);
      const e = text[i + 1];
      if (e === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else {
        const decoded = e === undefined ? undefined : ESCAPES[e];
        if (decoded === undefined) fail('invalid escape');
        out += decoded;
        i += 2;
      }
      start = i;
    }
    out += text.slice(start, i);
    i++; // closing quote
    // Checked on the decoded value: a pair written as two \u escapes is fine, half of one is not.
    if (LONE_SURROGATE.test(out)) throw new WireError('jcs_lone_surrogate', `string ending at offset ${i} holds a lone UTF-16 surrogate`);
    return out;
  };

  const parseNumber = (): number => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) return fail('invalid number');
    const n = Number(match[0]);
    if (!Number.isFinite(n))
      throw new WireError('jcs_number_out_of_range', `number ${match[0].slice(0, 40)} at offset ${i} is beyond IEEE 754 double range`);
    i += match[0].length;
    return n;
  };

  const parseLiteral = <T>(word: string, value: T): T => {
    if (!text.startsWith(word, i)) fail('unexpected token');
    i += word.length;
    return value;
  };

  const parseValue = (depth: number): unknown => {
    skipWhitespace();
    const c = text[i];
    if (c === '{' || c === '[') {
      if (depth >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
      return c === '{' ? parseObject(depth) : parseArray(depth);
    }
    if (c === '"') return parseString();
    if (c === 't') return parseLiteral('true', true);
    if (c === 'f') return parseLiteral('false', false);
    if (c === 'n') return parseLiteral('null', null);
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return parseNumber();
    return fail(c === undefined ? 'unexpected end of input' : 'unexpected token');
  };

  const parseArray = (depth: number): unknown[] => {
    i++;
    const out: unknown[] = [];
    skipWhitespace();
    if (text[i] === ']') {
      i++;
      return out;
    }
    for (;;) {
      out.push(parseValue(depth + 1));
      skipWhitespace();
      const c = text[i++];
      if (c === ']') return out;
      if (c !== ',') fail('expected , or ]');
    }
  };

  const parseObject = (depth: number): Record<string, unknown> => {
    i++;
    const out: Record<string, unknown> = {};
    skipWhitespace();
    if (text[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      skipWhitespace();
      if (text[i] !== '"') fail('expected a string key');
      const key = parseString();
      skipWhitespace();
      if (text[i++] !== ':') fail('expected :');
      const value = parseValue(depth + 1);
      if (Object.hasOwn(out, key)) throw new WireError('jcs_duplicate_key', `duplicate key ${JSON.stringify(key)} before offset ${i}`);
      // defineProperty, not assignment: a "__proto__" key must stay data, never reach the prototype.
      Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
      skipWhitespace();
      const c = text[i++];
      if (c === '}') return out;
      if (c !== ',') fail('expected , or }');
    }
  };

  const value = parseValue(0);
  skipWhitespace();
  if (i !== text.length) fail('trailing characters');
  return value;
}
