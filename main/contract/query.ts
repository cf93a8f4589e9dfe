// Query texts and words as the contract declares them, read one way for every route: an absent or empty parameter
// is none, anything else must be what the route takes, or the answer is 400 invalid_field naming the parameter.
// Numbers: see ./query-numbers.
import { z } from './zod';

/** The page size of the audit log and the reports list. */
export const LIMIT_RANGE = { min: 1, max: 1000 } as const;

/** A sequence number to page before. */
export const SEQ_RANGE = { min: 1, max: Number.MAX_SAFE_INTEGER } as const;

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
