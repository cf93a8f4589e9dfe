// Query parameters as the contract declares them, read one way for every route: an absent or empty parameter is
// its default (undefined), anything else must be what the route takes, or the answer is 400 invalid_field naming
// the parameter (the rules main/api/query.ts applied by hand before the families were declared schema first).
import { z } from './zod';

/** The page size of list routes. */
export const LIMIT_RANGE = { min: 1, max: 1000 } as const;

/** A sequence number to page before. */
export const SEQ_RANGE = { min: 1, max: Number.MAX_SAFE_INTEGER } as const;

/** A whole decimal number within [min, max]: "1e3", "1.5" or a number past 2^53 is no page size. */
export function queryInt(name: string, range: { min: number; max: number }) {
  const rule = `${name} is a whole number from ${range.min} to ${range.max}`;
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return undefined;
      const n = /^-?[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isSafeInteger(n) && n >= range.min && n <= range.max) return n;
      ctx.addIssue({ code: 'custom', message: rule });
      return z.NEVER;
    });
}

/** A text parameter of at most maxLength characters, undefined when absent or empty. */
export function queryText(name: string, maxLength = 256) {
  return z
    .string()
    .max(maxLength, `${name} is at most ${maxLength} characters`)
    .optional()
    .transform((raw) => (raw === '' ? undefined : raw));
}

/** One word of a list, undefined when absent or empty. */
export function queryWord<const W extends readonly [string, ...string[]]>(name: string, words: W) {
  return z
    .union([z.enum(words), z.literal('')], { error: `${name} is one of ${words.join(', ')}` })
    .optional()
    .transform((raw) => (raw === '' ? undefined : raw));
}
