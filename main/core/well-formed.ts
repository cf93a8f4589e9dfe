// Well-formed text: strings without lone UTF-16 surrogates, which UTF-8 storage, the audit chain's canonical JSON
// and a signature cannot carry faithfully. Below every folder: the store writes through it, the request decoder
// (http/json-body.ts) refuses what fails it, and what was stored before bodies were checked is repaired by it.

// With the u flag a well-formed pair is one code point, so only lone surrogates match.
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

export const hasLoneSurrogate = (s: string): boolean => LONE_SURROGATE.test(s);

/** The string with each lone surrogate replaced by U+FFFD: what UTF-8 storage would make of it anyway. */
export const wellFormed = (s: string): string => (LONE_SURROGATE.test(s) ? s.replace(LONE_SURROGATES, '\ufffd') : s);

/** A copy of a JSON value with every string and key well-formed (for data stored before bodies were checked). */
export function wellFormedValue<T>(value: T): T {
  if (typeof value === 'string') return wellFormed(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => wellFormedValue(v)) as T;
  const out: Record<string, unknown> = {};
  // defineProperty, not assignment: a "__proto__" key must stay data.
  for (const [k, v] of Object.entries(value))
    Object.defineProperty(out, wellFormed(k), { value: wellFormedValue(v), writable: true, enumerable: true, configurable: true });
  return out as T;
}
