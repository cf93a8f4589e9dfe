// Query parameters, read one way for every route: an absent or empty parameter is its default, anything else
// must be what the route takes, or the answer is 400 invalid_field naming the parameter.
import { ValidationError } from '../core/errors';

/** The query of a route, by the names its contract declares. */
interface Query<N extends string> {
  get(name: N): string | null;
}

/** A whole decimal number within [min, max]; `fallback` when absent. */
export function queryInt<N extends string>(
  query: Query<N>,
  name: N,
  range: { min: number; max: number },
  fallback?: number,
): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const n = /^-?[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < range.min || n > range.max)
    throw new ValidationError(name, `${name} is a whole number from ${range.min} to ${range.max}`);
  return n;
}

/** A text parameter, undefined when absent or empty. */
export function queryString<N extends string>(query: Query<N>, name: N, maxLength = 256): string | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (raw.length > maxLength) throw new ValidationError(name, `${name} is at most ${maxLength} characters`);
  return raw;
}

/** The page size of list routes. */
export const LIMIT_RANGE = { min: 1, max: 1000 } as const;

/** A sequence number to page before. */
export const SEQ_RANGE = { min: 1, max: Number.MAX_SAFE_INTEGER } as const;
