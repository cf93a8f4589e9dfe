// JSON request bodies, for the console API (HTTPS and IPC) and the agent gateway alike: one decoder that refuses
// what JSON.parse would accept but the store, the audit chain or a signature could not carry, with a 400.
import { CoreError } from '../errors';
import { hasLoneSurrogate } from '../well-formed';

/** Deeper than any body the API or the gateway takes; far below what a recursive walk could overflow on. */
export const MAX_JSON_DEPTH = 64;

export type InvalidJsonReason = 'invalid_utf8' | 'syntax' | 'too_deep' | 'lone_surrogate' | 'number_out_of_range' | 'not_json';

export class InvalidJsonError extends CoreError {
  constructor(
    readonly reason: InvalidJsonReason,
    message: string,
  ) {
    super('invalid_json', message, { reason });
    this.name = 'InvalidJsonError';
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The value of a JSON body: strict UTF-8, nesting at most `maxDepth` (checked before parsing, so a deep body
 * costs one linear scan), no lone UTF-16 surrogate in any string or key, every number finite.
 */
export function parseJsonBody(raw: Uint8Array, maxDepth = MAX_JSON_DEPTH): unknown {
  const text = orInvalid(() => utf8.decode(raw), 'invalid_utf8', 'the request body is not valid UTF-8');
  checkNesting(text, maxDepth);
  const value: unknown = orInvalid(() => JSON.parse(text), 'syntax', 'the request body is not valid JSON');
  checkJsonValue(value, maxDepth);
  return value;
}

/** What `read` returns; whatever it throws becomes an InvalidJsonError of `reason`. */
function orInvalid<T>(read: () => T, reason: InvalidJsonReason, message: string): T {
  try {
    return read();
  } catch {
    throw new InvalidJsonError(reason, message);
  }
}

/** Counts brackets outside strings; throws too_deep past `maxDepth`. */
function checkNesting(text: string, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) throw tooDeep(maxDepth);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

const tooDeep = (maxDepth: number): InvalidJsonError =>
  new InvalidJsonError('too_deep', `the request body nests deeper than ${maxDepth} levels`);

/**
 * Checks an already-built value (a parsed body, or one the IPC channel delivered by structured clone) without
 * recursion: only JSON types (undefined allowed as an absent field), at most `maxDepth` levels, no lone
 * surrogate, finite numbers.
 */
export function checkJsonValue(value: unknown, maxDepth = MAX_JSON_DEPTH): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    switch (typeof v) {
      case 'string':
        if (hasLoneSurrogate(v)) throw loneSurrogate();
        continue;
      case 'number':
        if (!Number.isFinite(v)) throw new InvalidJsonError('number_out_of_range', 'a number of the request body is beyond IEEE 754 range');
        continue;
      case 'boolean':
      case 'undefined':
        continue;
      case 'object':
        break;
      default:
        throw notJson(typeof v);
    }
    if (v === null) continue;
    if (depth >= maxDepth) throw tooDeep(maxDepth);
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth + 1]);
      continue;
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw notJson('non-plain object');
    for (const key of Object.keys(v)) {
      if (hasLoneSurrogate(key)) throw loneSurrogate();
      stack.push([(v as Record<string, unknown>)[key], depth + 1]);
    }
  }
}

const loneSurrogate = (): InvalidJsonError =>
  new InvalidJsonError('lone_surrogate', 'a string of the request body holds a lone UTF-16 surrogate (\\ud800-\\udfff unpaired)');
const notJson = (what: string): InvalidJsonError => new InvalidJsonError('not_json', `a ${what} is not a JSON value`);
