// The redaction's recall on a corpus of secrets in every form the issue lists (100 %), its false positives on a
// corpus of configuration, build and time values (none), the console's own API tokens, the rule set loaded as
// data, and JSON/YAML files that still parse after redaction.
import fc from 'fast-check';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../../main/core/accounts/passwords';
import { Redactor } from '../../../../main/core/support/redact';
import { DEFAULT_SECRET_RULES, loadSecretRules, SECRET_RULES_FORMAT } from '../../../../main/core/support/secret-rules';
import { testManager, type TestManager } from '../../../support/manager';
import { PRESET_ONLY_CASES } from './preset-only-corpus';
import { KNOWN_SECRET, PLAIN_CASES, SECRET_CASES, USERS, type SecretCase } from './redaction-corpus';

const redactor = (): Redactor => new Redactor({ secrets: [KNOWN_SECRET], userNames: USERS });
/** As an archive redacts a file: the maintained preset reads it whole, then the console's rules and the records. */
const redactCase = (r: Redactor, c: { text: string; path?: string }, kind: 'log' | 'config' = 'log'): Promise<string> =>
  r.redactFileWithPreset(c.path ?? 'journal/host-1/app.service.log', c.text, kind);

let t: TestManager | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

describe('redaction corpus', () => {
  it('redacts every secret of the corpus, class by class (recall 100 %)', async () => {
    const missed: string[] = [];
    let total = 0;
    for (const c of SECRET_CASES) {
      const out = await redactCase(redactor(), c);
      for (const s of c.secrets) {
        total += 1;
        if (out.includes(s)) missed.push(`${c.klass}: ${JSON.stringify(s)} in ${JSON.stringify(out)}`);
      }
    }
    expect(total).toBeGreaterThan(80);
    expect(missed, `recall ${((total - missed.length) / total) * 100} %`).toEqual([]);
  });

  it('covers every class the issue lists', () => {
    const classes = new Set(SECRET_CASES.map((c) => c.klass));
    for (const k of [
      'PGP private key',
      'PuTTY private key',
      'kubeconfig client-key-data',
      'private key PEM without END line',
      'command-line option',
      'command-line -pX',
      'XML password',
      'YAML block password',
      'escaped-JSON password',
      'Cookie',
      'AWS4 Authorization',
      'Digest Authorization',
      'webhook URL',
      'URL credentials with / or @',
      'short token',
      'card',
      'IBAN',
      'phone in other national formats',
      'e-mail variants',
      'user name in another case',
    ])
      expect(classes, k).toContain(k);
  });

  it('leaves every value of the plain corpus unchanged, in logs and in configs (no false positive)', async () => {
    const changed: string[] = [];
    for (const c of PLAIN_CASES) {
      // A config file keeps its addresses (they are the topology); a log has them replaced.
      for (const kind of c.path?.startsWith('config/') ? (['config'] as const) : (['config', 'log'] as const)) {
        const r = redactor();
        const out = await redactCase(r, c, kind);
        if (out !== c.text) changed.push(`${c.klass} (${kind}): ${JSON.stringify(out)}`);
        expect(Object.values(r.counts).every((n) => n === 0)).toBe(out === c.text);
      }
    }
    expect(changed).toEqual([]);
  });

  it('reads a long one-line record once, whatever its shape (no rule goes back over it at every character)', async () => {
    const n = 512 * 1024;
    const shapes: Record<string, string> = {
      base64: Buffer.alloc((n * 3) / 4, 7).toString('base64'),
      dotted: 'a.'.repeat(n / 2),
      digits: '1'.repeat(n),
      'spaced digits': '12 '.repeat(n / 3),
      dashes: '-'.repeat(n),
      url: `https://x/${'a/'.repeat(n / 2)}`,
      pairs: 'a=b '.repeat(n / 4),
      'unended key': `-----BEGIN PRIVATE KEY-----${'A'.repeat(n)}`,
    };
    for (const [shape, line] of Object.entries(shapes)) {
      const started = performance.now();
      await redactor().redactFileWithPreset('x.log', line, 'log');
      // Linear work is well under a second here; a rule that rescans from every character takes hours.
      expect(performance.now() - started, shape).toBeLessThan(15_000);
    }
  });

  it('keeps the key that names the secret and the scheme of an Authorization header readable', () => {
    const r = redactor();
    expect(r.redact('Authorization: Digest username="svc", response="abc"', 'log', 'x')).toBe(
      'Authorization: Digest [redacted:credential]',
    );
    expect(r.redact('db_password = hunter2-db', 'config', 'x')).toBe('db_password = [redacted:credential]');
    expect(r.redact('--password-file /run/db --password x1', 'log', 'x')).toBe('--password-file /run/db --password [redacted:credential]');
  });

  it('gives one pseudonym to a user name whatever its case', () => {
    const r = redactor();
    const out = r.redact('alice Alice ALICE', 'log', 'x');
    const names = out.split(' ');
    expect(new Set(names).size).toBe(1);
    expect(names[0]).toMatch(/^operator-[0-9a-f]{10}$/);
  });
});

describe('the console’s own credentials', () => {
  it('redacts an API token and a session token the manager issued, alone or in a header', async () => {
    t = testManager();
    const session = await t.login('alice', 'admin');
    const token = t.manager.accounts.tokens.create('alice', {}, 'alice').token;
    const r = new Redactor({ secrets: [], userNames: [] });
    const out = r.redact(
      [
        `script used ${token}`,
        `Authorization: Bearer ${token}`,
        `Cookie: navin_session=${session.session}`,
        `X-CSRF-Token: ${session.csrf}`,
      ].join('\n'),
      'log',
      'x',
    );
    expect(out).not.toContain(token);
    expect(out).not.toContain(token.slice(6));
    expect(out).not.toContain(session.session!);
    expect(out).not.toContain(session.csrf!);
    expect(out.split('\n')[0]).toBe('script used [redacted:token]');
  });

  it('redacts the one-time links serve prints, the second factor the console hands out and its password hashes', async () => {
    t = testManager();
    const setup = t.manager.accounts.issueSetupTicket();
    const session = await t.login('alice', 'admin');
    const ticket = t.manager.accounts.issueLoginTicket('alice');
    const mfa = await t.call('POST', '/api/v1/session/mfa/enrolment', {}, session);
    const enrolment = mfa.body as { secret: string; otpauth_uri: string };
    expect(enrolment.secret.length).toBeGreaterThan(10);
    const secret = enrolment.otpauth_uri.match(/secret=([A-Z2-7]+)/)![1]!;
    const r = new Redactor({ secrets: [], userNames: [] });
    const out = r.redact(
      [
        `no account yet: create the first admin with this one-time link (valid 15 minutes): https://127.0.0.1:8443/#setup=${setup}`,
        `one-time login link for alice (valid 15 minutes): https://127.0.0.1:8443/#ticket=${ticket}`,
        `enrolment ${enrolment.otpauth_uri}`,
      ].join('\n'),
      'log',
      'x',
    );
    for (const value of [setup, ticket, secret]) expect(out).not.toContain(value);
    const hash = await hashPassword('correct horse battery');
    const stored = r.redact(`password_hash ${hash}`, 'log', 'x');
    expect(stored).toBe('password_hash [redacted:credential]');
    const json = r.redactFile('mfa.json', JSON.stringify(enrolment), 'data');
    expect(json).not.toContain(secret);
    expect(json).not.toContain(enrolment.secret);
  });
});

describe('the maintained preset', () => {
  it('finds the shapes the console’s own rules miss, and replaces the whole record (line, JSON value, YAML scalar)', async () => {
    expect(PRESET_ONLY_CASES.length).toBeGreaterThanOrEqual(4);
    for (const c of PRESET_ONLY_CASES) {
      const path = c.path ?? 'journal/host-1/app.service.log';
      const own = redactor().redactFile(path, c.text, 'log');
      expect(own, `${c.klass}: the console's rules alone`).toContain(c.secrets[0]);
      const r = redactor();
      const out = await r.redactFileWithPreset(path, c.text, 'log');
      expect(out, c.klass).not.toContain(c.secrets[0]);
      expect(r.counts.token, c.klass).toBe(1);
    }
    const [, shopify, linear, shop] = PRESET_ONLY_CASES;
    expect(await redactor().redactFileWithPreset('j.log', shopify!.text, 'log')).toBe('[redacted:token]');
    expect(parseYaml(await redactor().redactFileWithPreset(linear!.path!, linear!.text, 'config'))).toEqual({ linear: '[redacted:token]' });
    expect(JSON.parse(await redactor().redactFileWithPreset(shop!.path!, shop!.text, 'config'))).toEqual({
      shop: { provider: 'shopify', secret_ref: '[redacted:token]' },
      port: 443,
    });
  });

  it('is not told to look away by a secretlint-disable comment in the text', async () => {
    const shopify = PRESET_ONLY_CASES[1]!;
    const text = `// secretlint-disable\n${shopify.text}\n// secretlint-enable`;
    expect(await redactor().redactFileWithPreset('j.log', text, 'log')).not.toContain(shopify.secrets[0]);
  });
});

describe('the secret rule set', () => {
  it('is data: a rule set given to the redactor is what finds third-party shapes', () => {
    const custom = loadSecretRules({
      format: SECRET_RULES_FORMAT,
      rules: [{ id: 'acme-key', kind: 'token', regex: '\\b(acme_[a-z0-9]{12})\\b', keywords: ['acme_'] }],
    });
    const line = 'keys acme_0123456789ab and ghp_0123456789abcdefghijklmnopqrstuvwxyz';
    expect(new Redactor({ secrets: [], userNames: [], secretRules: custom }).redact(line, 'log', 'x')).toBe(
      'keys [redacted:token] and ghp_0123456789abcdefghijklmnopqrstuvwxyz',
    );
    expect(new Redactor({ secrets: [], userNames: [] }).redact(line, 'log', 'x')).toBe('keys acme_0123456789ab and [redacted:token]');
    expect(DEFAULT_SECRET_RULES.length).toBeGreaterThan(20);
  });

  it('refuses a whole set when one rule is wrong, naming it', () => {
    const set = (rule: Record<string, unknown>): unknown => ({
      format: SECRET_RULES_FORMAT,
      rules: [{ id: 'ok', kind: 'token', regex: 'ok_[a-z]{8}', keywords: ['ok_'] }, rule],
    });
    const cases: [unknown, RegExp][] = [
      [set({ id: 'bad-re', kind: 'token', regex: '(unclosed', keywords: ['x'] }), /bad-re does not compile/],
      [set({ id: 'empty', kind: 'token', regex: 'a*', keywords: ['a'] }), /empty matches an empty string/],
      [set({ id: 'kind', kind: 'password', regex: 'x', keywords: ['x'] }), /rules\.1\.kind/],
      [set({ id: 'ok', kind: 'token', regex: 'y+', keywords: ['y'] }), /ok is given twice/],
      [set({ id: 'group', kind: 'token', regex: '(z+)', keywords: ['z'], secretGroup: 2 }), /group has no group 2/],
      [{ format: 'other/1', rules: [] }, /format/],
    ];
    for (const [data, message] of cases) {
      let caught: unknown;
      try {
        loadSecretRules(data);
      } catch (err) {
        caught = err;
      }
      expect(caught, String(message)).toMatchObject({ code: 'invalid_field', message: expect.stringMatching(message) });
    }
  });
});

describe('structured files', () => {
  const parseable = (c: SecretCase): boolean => /\.(json|ya?ml)$/.test(c.path ?? '');

  it('still parse after redaction, and keep every value that is not a secret', async () => {
    const { parse } = await import('yaml');
    const cases = [...SECRET_CASES.filter(parseable), ...PLAIN_CASES.filter((c) => /\.(json|ya?ml)$/.test(c.path ?? ''))];
    expect(cases.length).toBeGreaterThan(6);
    for (const c of cases) {
      const out = await redactCase(redactor(), c, 'config');
      const read = (s: string): unknown => (c.path!.endsWith('.json') ? JSON.parse(s) : parse(s));
      expect(() => read(out), `${c.path}: ${out}`).not.toThrow();
    }
    const services = PLAIN_CASES.find((c) => c.path === 'services.json')!;
    expect(JSON.parse(await redactCase(redactor(), services, 'config'))).toEqual(JSON.parse(services.text));
  });

  /** Strings of every Unicode category, with secrets, personal numbers and user names mixed in. */
  const leaf = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(
      ...SECRET_CASES.map((c) => c.text),
      ...PLAIN_CASES.map((c) => c.text),
      'alice',
      '+33 6 12 34 56 78',
      '4111 1111 1111 1111',
    ),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );
  const key = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom('password', 'token', 'client-key-data', 'port', 'd', 'owner'),
  );
  const tree = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
  })).node;

  /** Every leaf is kept, or replaced by what holds a marker or a pseudonym; the shape is the same. */
  const sameShape = (before: unknown, after: unknown): boolean => {
    if (Array.isArray(before))
      return Array.isArray(after) && after.length === before.length && before.every((b, i) => sameShape(b, after[i]));
    if (before !== null && typeof before === 'object') {
      if (after === null || typeof after !== 'object' || Array.isArray(after)) return false;
      return (
        Object.values(before).length === Object.values(after).length &&
        Object.values(before).every((b, i) => sameShape(b, Object.values(after)[i]))
      );
    }
    return Object.is(before, after) || (typeof after === 'string' && /\[redacted:[a-z_]+\]|operator-[0-9a-f]{10}/.test(after));
  };

  it('keeps any JSON document parseable and of the same shape (fuzz, every Unicode category)', () => {
    fc.assert(
      fc.property(tree, fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const r = redactor();
        const out = r.redactFile('data/any.json', text, 'data');
        expect(r.failures).toEqual([]);
        expect(sameShape(JSON.parse(text), JSON.parse(out))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps any YAML document parseable and of the same shape (fuzz, every Unicode category)', () => {
    fc.assert(
      fc.property(tree, (value) => {
        const text = stringifyYaml(value);
        const r = redactor();
        const out = r.redactFile('config/h1/any.yaml', text, 'config');
        expect(r.failures).toEqual([]);
        expect(sameShape(parseYaml(text), parseYaml(out))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('replaces a number under a credential key by a string, so the JSON stays JSON', () => {
    const out = redactor().redactFile('facts.json', '{"pin_code": 1234, "db": {"password": 987654}, "memory": 268435456}', 'data');
    expect(JSON.parse(out)).toEqual({ pin_code: 1234, db: { password: '[redacted:credential]' }, memory: 268435456 });
  });

  it('redacts a YAML block scalar under a password key and keeps the document', async () => {
    const { parse } = await import('yaml');
    const out = redactor().redactFile('a.yaml', 'db:\n  password: |\n    l1\n    l2\n  port: 5432\nlist:\n  - secret: s1\n', 'config');
    expect(parse(out)).toEqual({ db: { password: '[redacted:credential]', port: 5432 }, list: [{ secret: '[redacted:credential]' }] });
  });
});
