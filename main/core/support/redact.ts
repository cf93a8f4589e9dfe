// The redaction of a support archive: every rule replaces what it finds with a marker naming its kind and counts
// it, so MANIFEST.json can say how many replacements of each kind were made. Operators (registered user names)
// become pseudonyms keyed by a random per-archive key: the same person reads the same everywhere in one archive,
// and two archives cannot be linked.
import { createHmac, randomBytes } from 'node:crypto';
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js';

export const REDACTION_KINDS = ['private_key', 'secret', 'credential', 'token', 'email', 'user_name', 'card', 'ip', 'phone'] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];
export type RedactionCounts = Record<RedactionKind, number>;

/** What is redacted: `log` also has its IP addresses replaced (configs keep theirs, they are the topology). */
export type TextKind = 'config' | 'log' | 'data';

export interface RedactionInput {
  /** Every secret value the console knows (passwords, keys, tokens): replaced wherever it appears. */
  secrets: readonly string[];
  /** Registered user names (operators): replaced by their per-archive pseudonym. */
  userNames: readonly string[];
  /** The region whose national phone format is read without a leading +. */
  phoneRegion?: CountryCode;
  /** The per-archive pseudonym key; random unless given. */
  key?: Uint8Array;
}

export interface RedactionRule {
  kind: RedactionKind;
  /** Whether the rule applies to this kind of text. */
  applies(kind: TextKind): boolean;
  apply(text: string, replace: (found: string) => string): string;
}

export interface RedactionFailure {
  kind: RedactionKind;
  file: string;
  message: string;
}

const ALL = (_kind: TextKind): boolean => true;
const LOGS = (kind: TextKind): boolean => kind === 'log';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** PEM blocks of any private key, and the OpenSSH form. */
const PEM_KEY = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY)-----[\s\S]*?-----END \1-----/g;
/** A raw key: a long hex or base64 value behind a name that says it is a private or secret key. */
const RAW_KEY =
  /\b([\w.-]*(?:private|priv|secret|signing|seed)[_-]?key\b["']?\s*[:=]\s*["']?)([A-Fa-f0-9]{32,}|[A-Za-z0-9+/]{32,}={0,2})/gi;
/** name = value, name: value, "name": "value" for the names that carry a credential. */
const CREDENTIAL_PAIR =
  /(\b[\w.-]*?(?:password|passwd|pwd|pass|passphrase|secret|api[_-]?key|access[_-]?key|client[_-]?secret|credentials?)\b["']?\s*[:=]\s*)(?:"([^"\r\n]*)"|'([^'\r\n]*)'|([^\s,;"'}\]]+))/gi;
/** user:password@ in a URL. */
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi;
const BEARER = /(\b(?:Bearer|Basic|Token)\s+)([A-Za-z0-9._~+/=-]{8,})/g;
const TOKEN_PAIR =
  /(\b[\w.-]*?(?:token|auth[_-]?token|access[_-]?token|refresh[_-]?token|session)\b["']?\s*[:=]\s*["']?)([A-Za-z0-9._~+/=-]{8,})/gi;
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\b/g;
const PREFIXED_TOKEN = /\b(?:nvt_|ghp_|gho_|github_pat_|glpat-|xox[abpr]-|sk-|AKIA)[A-Za-z0-9_-]{12,}\b/g;
const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g;
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;
const IPV4 = /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\d.])/g;
const H = '[A-Fa-f0-9]{1,4}';
/** The full form (8 groups) or a compressed one (with its ::), so a time of day (03:25:10) is never read as one. */
const IPV6 = new RegExp(
  `(?<![:\\w])(?:(?:${H}:){7}${H}|(?:${H}:){1,6}:(?:${H}:){0,5}${H}|(?:${H}:){1,7}:|::(?:${H}:){0,6}${H})(?![:\\w])`,
  'g',
);

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length >= 13 && sum % 10 === 0;
}

function regexRule(kind: RedactionKind, pattern: RegExp, applies: (kind: TextKind) => boolean = ALL, group?: number): RedactionRule {
  return {
    kind,
    applies,
    apply: (text, replace) =>
      text.replace(pattern, (...m: string[]) => {
        if (group === undefined) return replace(m[0]!);
        const head = m.slice(1, group).join('');
        const tail = m.slice(group + 1, m.length - 2).filter((x) => typeof x === 'string');
        return head + replace(m[group]!) + tail.join('');
      }),
  };
}

/** The rules, in the order they run: keys and exact secrets before the shapes that could cut them in two. */
/** A run that could hold a phone number: digits with the separators numbers are written with, on one line. */
const PHONE_CANDIDATE = /(?<![\w+])\+?\(?\d[\d \t()./-]{5,24}\d(?!\w)/g;

export function defaultRules(input: RedactionInput, pseudonym: (name: string) => string): RedactionRule[] {
  const secrets = [...new Set(input.secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  const names = [...new Set(input.userNames.filter((s) => s.length >= 2))].sort((a, b) => b.length - a.length);
  const region = input.phoneRegion ?? 'FR';
  const rules: RedactionRule[] = [regexRule('private_key', PEM_KEY), regexRule('private_key', RAW_KEY, ALL, 2)];
  if (secrets.length > 0) rules.push(regexRule('secret', new RegExp(secrets.map(escapeRegExp).join('|'), 'g')));
  rules.push(
    credentialRule(),
    regexRule('credential', URL_USERINFO, ALL, 2),
    regexRule('token', JWT),
    regexRule('token', PREFIXED_TOKEN),
    regexRule('token', BEARER, ALL, 2),
    regexRule('token', TOKEN_PAIR, ALL, 2),
    regexRule('email', EMAIL),
  );
  rules.push(
    {
      kind: 'card',
      applies: ALL,
      apply: (text, replace) => text.replace(CARD, (m) => (luhnValid(m.replace(/[ -]/g, '')) ? replace(m) : m)),
    },
    regexRule('ip', IPV4, LOGS),
    regexRule('ip', IPV6, LOGS),
    {
      kind: 'phone',
      applies: ALL,
      // libphonenumber reads only the runs of digits that could be a phone number: on a whole log it costs 200×
      // a copy of the bytes, on these runs next to nothing (test/bench/support.bench.ts).
      apply: (text, replace) =>
        text.replace(PHONE_CANDIDATE, (run) => {
          const found = findPhoneNumbersInText(run, { defaultCountry: region });
          if (found.length === 0) return run;
          let out = '';
          let at = 0;
          for (const f of found) {
            out += run.slice(at, f.startsAt) + replace(run.slice(f.startsAt, f.endsAt));
            at = f.endsAt;
          }
          return out + run.slice(at);
        }),
    },
  );
  // Last: a pseudonym is never read again as a phone, a card or a token.
  if (names.length > 0) {
    const pattern = new RegExp(`(?<![\\w@])(?:${names.map(escapeRegExp).join('|')})(?![\\w@])`, 'g');
    rules.push({
      kind: 'user_name',
      applies: ALL,
      apply: (text, replace) => text.replace(pattern, (name) => (replace(name), pseudonym(name))),
    });
  }
  return rules;
}

function credentialRule(): RedactionRule {
  return {
    kind: 'credential',
    applies: ALL,
    apply: (text, replace) =>
      text.replace(CREDENTIAL_PAIR, (_m, head: string, dq?: string, sq?: string, bare?: string) => {
        if (dq !== undefined) return `${head}"${dq === '' || isMarker(dq) ? dq : replace(dq)}"`;
        if (sq !== undefined) return `${head}'${sq === '' || isMarker(sq) ? sq : replace(sq)}'`;
        return head + (isMarker(bare!) ? bare! : replace(bare!));
      }),
  };
}

const MARKER = /^\[redacted:[a-z_]+\]$/;
const isMarker = (s: string): boolean => MARKER.test(s);

export function zeroCounts(): RedactionCounts {
  return Object.fromEntries(REDACTION_KINDS.map((k) => [k, 0])) as RedactionCounts;
}

/** One archive's redactor: its pseudonym key lives as long as the archive being built, and is never written. */
export class Redactor {
  readonly counts = zeroCounts();
  readonly failures: RedactionFailure[] = [];
  private readonly key: Uint8Array;
  private readonly rules: RedactionRule[];

  constructor(input: RedactionInput, rules?: (defaults: RedactionRule[]) => RedactionRule[]) {
    this.key = input.key ?? randomBytes(32);
    const defaults = defaultRules(input, (name) => this.pseudonym(name));
    this.rules = rules ? rules(defaults) : defaults;
  }

  /** The per-archive pseudonym of an operator: HMAC-SHA256 under the archive's key, cut to 10 hex digits. */
  pseudonym(name: string): string {
    return `operator-${createHmac('sha256', this.key).update(name.normalize('NFC')).digest('hex').slice(0, 10)}`;
  }

  /** Redacts one text; a rule that throws is recorded as a failure (the archive is then not marked redacted). */
  redact(text: string, kind: TextKind, file: string): string {
    let out = text;
    for (const rule of this.rules) {
      if (!rule.applies(kind)) continue;
      try {
        out = rule.apply(out, () => {
          this.counts[rule.kind] += 1;
          return `[redacted:${rule.kind}]`;
        });
      } catch (err) {
        this.failures.push({ kind: rule.kind, file, message: err instanceof Error ? err.message : String(err) });
      }
    }
    return out;
  }
}
