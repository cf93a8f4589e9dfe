// The declared type of every catalog setting, and the zod schema of its values. A setting's value is judged by
// its type before anything else sees it (the API, the catalog's own defaults and version values), so a value
// that is not an integer, a size, a duration, one of an enum, a host list or the declared pattern never reaches
// a template; the encoders of setting-encoders.ts then write it as the file it lands in needs.
import { z } from 'zod';

export const SETTING_TYPES = ['integer', 'size', 'duration', 'boolean', 'enum', 'pattern', 'host_list', 'list'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

/** Sizes as NATS and most config files read them: K, M, G, T are powers of 1024, with or without a B (or iB). */
const SIZE = /^(0|[1-9][0-9]{0,15})(([KMGT])(i?B)?|B)?$/;
const SIZE_SHIFT: Record<string, number> = { K: 10, M: 20, G: 30, T: 40 };
/** Go's time.ParseDuration grammar, as etcd and the Prometheus exporters read durations (no sign, no µ). */
const DURATION = /^([0-9]{1,9}(\.[0-9]{1,9})?(ns|us|ms|s|m|h))+$/;
/** A DNS name or an IPv4 address, with an optional port; IPv6 in brackets. */
const HOST = /^(([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]{2,45}\])(:[1-9][0-9]{0,4})?$/i;
/** The longest text a setting holds (README's security limits state it). */
export const MAX_SETTING_TEXT = 1000;

const description = z.string().min(1).max(2000).optional();
/** A pattern is matched whole: anchors are added, so a catalog cannot forget them. */
const pattern = z
  .string()
  .min(1)
  .max(500)
  .refine((p) => {
    try {
      new RegExp(`^(?:${p})$`, 'u');
      return true;
    } catch {
      return false;
    }
  }, 'a pattern is a valid regular expression (matched whole)');

const Integer = z.strictObject({
  type: z.literal('integer'),
  description,
  min: z.number().int().optional(),
  max: z.number().int().optional(),
  default: z.number().int(),
});
const Size = z.strictObject({
  type: z.literal('size'),
  description,
  /** The largest size accepted, in bytes. */
  max: z.number().int().positive().optional(),
  default: z.union([z.string(), z.number().int().nonnegative()]),
});
const Duration = z.strictObject({
  type: z.literal('duration'),
  description,
  /** A whole number alone is read in this unit by the service (etcd reads a bare retention as hours). */
  bare_unit: z.enum(['s', 'm', 'h']).optional(),
  /** The empty value means "not set" (a template section on it is then left out). */
  optional: z.boolean().default(false),
  default: z.string(),
});
const BooleanSetting = z.strictObject({ type: z.literal('boolean'), description, default: z.boolean() });
const Enum = z.strictObject({
  type: z.literal('enum'),
  description,
  values: z.array(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/)).min(1),
  default: z.string(),
});
const Pattern = z.strictObject({
  type: z.literal('pattern'),
  description,
  pattern,
  optional: z.boolean().default(false),
  default: z.string(),
});
/** Hosts separated by commas, each a name or an address with an optional port. */
const HostList = z.strictObject({ type: z.literal('host_list'), description, default: z.string() });
/** Items separated by single spaces, each matching the pattern: rendered as one argument or one list entry each. */
const List = z.strictObject({ type: z.literal('list'), description, item: pattern, default: z.string() });

export const SettingDeclaration = z.discriminatedUnion('type', [Integer, Size, Duration, BooleanSetting, Enum, Pattern, HostList, List], {
  error: `a setting declares its type: one of ${SETTING_TYPES.join(', ')}`,
});
export type SettingDecl = z.infer<typeof SettingDeclaration>;
export type SettingValue = string | number | boolean;

/** The bytes a size names (a number is already bytes). */
export function sizeBytes(value: string | number): number {
  if (typeof value === 'number') return value;
  const m = SIZE.exec(value);
  if (!m) throw new Error(`not a size: ${value}`);
  return Number(m[1]) * 2 ** (m[3] ? SIZE_SHIFT[m[3]]! : 0);
}

const NANOS: Record<string, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
/** Go durations are int64 nanoseconds: a longer one is refused by the service (about 292 years). */
const MAX_DURATION_NANOS = 2 ** 63 - 1;

/** The nanoseconds of a duration of the grammar (a bare number counted in `bareUnit`), approximate past 2^53. */
export function durationNanos(value: string, bareUnit?: 's' | 'm' | 'h'): number {
  if (/^[0-9]+$/.test(value)) return Number(value) * NANOS[bareUnit ?? 'ns']!;
  let total = 0;
  for (const m of value.matchAll(/([0-9.]+)(ns|us|ms|s|m|h)/g)) total += Number(m[1]) * NANOS[m[2]!]!;
  return total;
}

/** Items of a list or host list value ("" is no item). */
export const listItems = (decl: SettingDecl, value: string): string[] =>
  value === '' ? [] : decl.type === 'host_list' ? value.split(',') : value.split(' ');

const text = (what: string) =>
  z
    .string()
    .max(MAX_SETTING_TEXT, `${what} has at most ${MAX_SETTING_TEXT} characters`)
    // No config file can carry them (the encoders refuse them too), whatever a catalog's pattern allows.
    .refine((s) => !/\0|\p{Cs}/u.test(s), `${what} holds no NUL and no lone surrogate`);
const emptyOr = (optional: boolean, s: z.ZodType<string>) => (optional ? z.union([z.literal(''), s]) : s);

/** The zod schema of one setting's values. */
export function settingValueSchema(decl: SettingDecl): z.ZodType<SettingValue> {
  switch (decl.type) {
    case 'integer':
      return z
        .number({ error: 'an integer' })
        .int('an integer')
        .min(decl.min ?? Number.MIN_SAFE_INTEGER, `at least ${decl.min}`)
        .max(decl.max ?? Number.MAX_SAFE_INTEGER, `at most ${decl.max}`);
    case 'size': {
      const max = decl.max ?? Number.MAX_SAFE_INTEGER;
      // One check over both shapes: zod runs a refine even after the regex before it failed.
      return z.custom<SettingValue>(
        (v) =>
          typeof v === 'number'
            ? Number.isSafeInteger(v) && v >= 0 && v <= max
            : typeof v === 'string' && SIZE.test(v) && sizeBytes(v) <= max,
        { error: `a size in bytes, or a number with K, M, G or T (KB, MiB…), at most ${max} bytes` },
      );
    }
    case 'duration': {
      const grammar = decl.bare_unit ? new RegExp(`${DURATION.source}|^[0-9]{1,9}$`) : DURATION;
      const what = `a duration such as 30s, 5m or 1h30m${decl.bare_unit ? `, or a number of ${decl.bare_unit}` : ''}, at most 2562047h`;
      return emptyOr(
        decl.optional,
        text('a duration').refine((v) => grammar.test(v) && durationNanos(v, decl.bare_unit) <= MAX_DURATION_NANOS, what),
      );
    }
    case 'boolean':
      return z.boolean({ error: 'true or false' });
    case 'enum':
      return z.enum(decl.values as [string, ...string[]], { error: `one of ${decl.values.join(', ')}` });
    case 'pattern':
      return emptyOr(decl.optional, text('the value').regex(new RegExp(`^(?:${decl.pattern})$`, 'u'), `a value matching ${decl.pattern}`));
    case 'host_list':
      return text('a host list').refine(
        (s) => listItems(decl, s).every((h) => HOST.test(h)),
        'host names or addresses (with an optional :port) separated by commas, without spaces',
      );
    case 'list': {
      const item = new RegExp(`^(?:${decl.item})$`, 'u');
      return text('a list').refine(
        (s) => listItems(decl, s).every((i) => item.test(i)),
        `items separated by single spaces, each matching ${decl.item}`,
      );
    }
  }
}

/** The first problem of a value for its declaration, or null. */
export function settingProblem(decl: SettingDecl, value: unknown): string | null {
  const r = settingValueSchema(decl).safeParse(value);
  return r.success ? null : (r.error.issues[0]?.message ?? 'not a valid value');
}
