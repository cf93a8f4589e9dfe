// Numbers of a query string, one rule for every route: absent or empty is the route's default; anything else is a
// whole decimal number within the route's range, or 400 invalid_field naming the parameter. "1e3", "1.5" and numbers past 2^53 are refused.
import { z } from './zod';

const DECIMAL = /^-?[0-9]{1,16}$/;

export interface WholeNumberRange {
  min: number;
  max: number;
}

/**
 * A whole number of the query within `range`, `fallback` when absent or empty. A URL carries it as text; a number
 * is taken too, as the console's client writes the query from numbers.
 */
export function queryWholeNumber<F extends number | undefined = undefined>(name: string, range: WholeNumberRange, fallback?: F) {
  const rule = `${name} is a whole number from ${range.min} to ${range.max}`;
  return z
    .union([z.string(), z.number()], { error: rule })
    .optional()
    .transform((raw, ctx): number | F => {
      if (raw === undefined || raw === '') return fallback as F;
      const n = typeof raw === 'number' ? raw : DECIMAL.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isSafeInteger(n) && n >= range.min && n <= range.max) return n;
      ctx.addIssue({ code: 'custom', message: rule });
      return z.NEVER;
    })
    .meta({ description: rule });
}
