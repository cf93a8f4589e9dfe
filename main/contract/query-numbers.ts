// Numbers of a query string, one rule for every route: absent or empty is the route's default; anything else is a
// whole decimal number within the route's range, or 400 invalid_field naming the parameter (as main/api/query.ts
// read them before the families were declared schema first). "1e3", "1.5" and numbers past 2^53 are refused.
import { z } from './zod';

const DECIMAL = /^-?[0-9]{1,16}$/;

export interface WholeNumberRange {
  min: number;
  max: number;
}

/** A whole number of the query within `range`, `fallback` when absent or empty. */
export function queryWholeNumber(name: string, range: WholeNumberRange, fallback: number): z.ZodType<number, string | undefined>;
export function queryWholeNumber(name: string, range: WholeNumberRange): z.ZodType<number | undefined, string | undefined>;
export function queryWholeNumber(
  name: string,
  range: WholeNumberRange,
  fallback?: number,
): z.ZodType<number | undefined, string | undefined> {
  const rule = `${name} is a whole number from ${range.min} to ${range.max}`;
  return z
    .string({ error: rule })
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return fallback;
      const n = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isSafeInteger(n) && n >= range.min && n <= range.max) return n;
      ctx.addIssue({ code: 'custom', message: rule });
      return z.NEVER;
    })
    .meta({ description: rule });
}
