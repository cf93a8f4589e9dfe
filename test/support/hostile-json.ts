// Random and hostile request bodies and queries for the fuzz tests of the console API and the gateway: JSON whose
// strings and keys hold lone surrogates, nesting around and far past the depth limit, sizes around the body limit,
// numbers JSON.parse turns into Infinity, -0 or a rounded value, bytes that are not UTF-8, text that is not JSON,
// and valid bodies of a route with hostile values planted in them (to get past a handler's first check).
import fc from 'fast-check';

/** JSON written as is: numbers JSON.stringify never writes (1e400, 30 digits, -0), nesting built as text. */
class Raw {
  constructor(readonly text: string) {}
}
export type Value = null | boolean | number | string | Raw | Value[] | { [key: string]: Value };

/** Names that make a handler reach out to the network (syslog and DNS servers, cluster endpoints, kubeconfigs,
 * mirrors): never generated, since no test sends traffic beyond loopback. */
export const NETWORK_FIELDS: ReadonlySet<string> = new Set(['host', 'servers', 'fqdn', 'address', 'kubeconfig', 'gateway_url', 'url']);

const NUMBER_LITERALS = ['1e400', '-1e400', '1e-400', '123456789012345678901234567890', '-0', '0', '1.5', '-1', '9007199254740993', '1E+2'];
// Values the handlers look for, so that random bodies also get past the first check of a field. No profile above
// development: one would require a second factor of the admin the fuzz runs as, and every later answer be a 403.
const WORDS = [
  '',
  ' ',
  'alice',
  'admin',
  'operator',
  'viewer',
  'development',
  'nope',
  'opa',
  'nats',
  'etcd',
  '1.2.3',
  '30d',
  '0d',
  '-1d',
  '400d',
  '99999999999999999999d',
  'succeeded',
  'failed',
  'rejected',
  'restart',
  'stop',
  'nonce_replayed',
  'navin-platform',
  '../../etc/passwd',
  '\u0000',
  '\u202e',
  'a'.repeat(300),
  'registry.local/x@sha256:' + 'e'.repeat(64),
];

const lone = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

export function hostileString(words: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
    { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), lone, fc.string({ maxLength: 8 })).map(([a, l, b]) => a + l + b) },
    { weight: 4, arbitrary: fc.constantFrom(...WORDS, ...words) },
  );
}

const keyOf = (fields: readonly string[]): fc.Arbitrary<string> =>
  fc
    .oneof({ weight: 3, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: hostileString() })
    .filter((k) => !NETWORK_FIELDS.has(k));

function valueOf(fields: readonly string[], words: readonly string[]): fc.Arbitrary<Value> {
  const key = keyOf(fields);
  const { value } = fc.letrec<{ value: Value }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double(),
      fc.constantFrom(...NUMBER_LITERALS).map((t) => new Raw(t)),
      hostileString(words),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    ),
  }));
  return value;
}

const isObject = (v: Value): v is { [key: string]: Value } =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Raw);

function encode(v: Value): string {
  if (v instanceof Raw) return v.text;
  if (Array.isArray(v)) return `[${v.map(encode).join(',')}]`;
  if (isObject(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${encode(x)}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** Nesting around the limit and far past it. */
const deep = fc
  .record({
    n: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 200_000 })),
    kind: fc.constantFrom('array', 'object', 'open'),
  })
  .map(({ n, kind }) =>
    kind === 'array' ? '['.repeat(n) + ']'.repeat(n) : kind === 'object' ? '{"a":'.repeat(n) + '1' + '}'.repeat(n) : '['.repeat(n),
  );

/** A value to plant in a valid body: deep nesting, a lone surrogate, a number JSON cannot keep, or anything. */
function planted(fields: readonly string[], words: readonly string[]): fc.Arbitrary<Value> {
  return fc.oneof(
    deep.map((t) => new Raw(t)),
    fc.tuple(fc.string({ maxLength: 8 }), lone).map(([a, l]) => a + l),
    fc.constantFrom(...NUMBER_LITERALS).map((t) => new Raw(t)),
    // Another type than the field's.
    fc.constantFrom<Value>([], {}, [''], [{}], 0, true, null, ''),
    valueOf(fields, words),
  );
}

/** How many spots a value has: itself, and each element and member, at any depth. */
function spotCount(v: Value): number {
  if (Array.isArray(v)) return 1 + v.reduce<number>((n, x) => n + spotCount(x), 0);
  if (isObject(v)) return 1 + Object.values(v).reduce<number>((n, x) => n + spotCount(x), 0);
  return 1;
}

/** A copy of `v` where spot `at` (in the order spotCount counts) is `by`, or, for an object, gains `key: by`. */
function plant(v: Value, at: number, by: Value, key: string | null, counter = { i: 0 }): Value {
  if (counter.i++ === at) return key !== null && isObject(v) ? { ...v, [key]: by } : by;
  if (Array.isArray(v)) return v.map((x) => plant(x, at, by, key, counter));
  if (isObject(v)) {
    const out: { [k: string]: Value } = {};
    for (const [k, x] of Object.entries(v)) out[k] = plant(x, at, by, key, counter);
    return out;
  }
  return v;
}

/** A valid body with one to three of its spots replaced by hostile values. */
function mutated(seed: Value, fields: readonly string[], words: readonly string[]): fc.Arbitrary<string> {
  const change = fc.tuple(fc.nat({ max: spotCount(seed) - 1 }), planted(fields, words), fc.option(keyOf(fields), { nil: null }));
  return fc
    .array(change, { minLength: 1, maxLength: 3 })
    .map((changes) => encode(changes.reduce<Value>((v, [at, by, key]) => plant(v, at, by, key), seed)));
}

// A surrogate as UTF-8 bytes, an overlong slash, a byte never valid, a sequence cut short, a 5-byte form.
const BAD_UTF8 = [[0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xff], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80]];
const badUtf8 = fc
  .tuple(fc.constantFrom(...BAD_UTF8), fc.constantFrom('name', 'inventory', 'password'))
  .map(([bytes, field]) => Buffer.concat([Buffer.from(`{"${field}":"x`), Buffer.from(bytes), Buffer.from('"}')]));

/** The raw body of one request (undefined: none), for a listener whose limit is `limit` bytes. */
export function hostileBody(opts: {
  fields: readonly string[];
  words?: readonly string[];
  limit: number;
  /** Valid bodies of the route, to plant hostile values in. */
  seeds?: readonly Value[];
}): fc.Arbitrary<string | Buffer | undefined> {
  const words = opts.words ?? [];
  const value = valueOf(opts.fields, words);
  const seeds = opts.seeds ?? [];
  return fc.oneof(
    ...(seeds.length
      ? [
          { weight: 12, arbitrary: fc.oneof(...seeds.map((seed) => mutated(seed, opts.fields, words))) },
          { weight: 1, arbitrary: fc.constantFrom(...seeds.map(encode)) },
        ]
      : []),
    { weight: 6, arbitrary: fc.dictionary(keyOf(opts.fields), value, { maxKeys: 6 }).map(encode) },
    { weight: 2, arbitrary: value.map(encode) },
    { weight: 2, arbitrary: deep },
    { weight: 1, arbitrary: badUtf8 },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(undefined, '', ' ', 'null', '[]', '{}', '"x"', '1e400', '{"a":1,"a":2}', '{"__proto__":{"x":1}}'),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(opts.limit - 64, opts.limit + 1, opts.limit * 2)
        .map((n) => `{"name":"${'a'.repeat(Math.max(0, n - 12))}"}`),
    },
  );
}

const QUERY_VALUES = ['abc', '1.5', '-1', '0', '1', '1e400', '99999999999999999999', '', '%', '%ED%A0%80', '%00', 'null', '[]', 'fr', 'en'];

/** A query string (without `?`) over the given parameter names. */
export function hostileQuery(names: readonly string[]): fc.Arbitrary<string> {
  const value = fc.oneof(fc.constantFrom(...QUERY_VALUES), fc.string({ maxLength: 12 }).map(encodeURIComponent));
  return fc
    .array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 3 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
}

/** A path segment: one of the real ids given, or a hostile one (encoded, as a client must send it). */
export function hostileSegment(real: readonly string[]): fc.Arbitrary<string> {
  const hostile = [
    { weight: 2, arbitrary: fc.string({ maxLength: 16 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.constantFrom('%ED%A0%80', '%', '%2e%2e', '..', '%00', 'a'.repeat(2000), '%F0%9F%9A%80') },
  ];
  return real.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, ...hostile) : fc.oneof(...hostile);
}
