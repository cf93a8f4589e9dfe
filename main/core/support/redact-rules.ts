// The rules of the redaction, in the order they run: key blocks and the exact secrets the console knows first,
// then the shapes found in context (a header, an option, a key that names a credential, a URL), then the shapes
// found alone (tokens, e-mail addresses, IBANs, cards, addresses, phones), user names last so that a pseudonym
// is never read again as anything else.
import type { CountryCode } from 'libphonenumber-js';
import { CARD_CANDIDATE, IBAN_START, ibanAt, isCardNumber, isPhoneNumber, PHONE_CANDIDATE, secretKeyKind } from './redact-shapes';
import { isMarker, type RedactionKind, type RedactionRule, type Replace, type TextKind } from './redact-types';
import type { SecretRule } from './secret-rules';

const ALL = (_kind: TextKind): boolean => true;
const LOGS = (kind: TextKind): boolean => kind === 'log';

export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function rule(kind: RedactionKind, apply: RedactionRule['apply'], scope: 'line' | 'block' = 'line', applies = ALL): RedactionRule {
  return { kind, scope, applies, apply };
}

/** Replaces group `group` of every match (the whole match when 0), unless it is already a marker. */
function regexRule(kind: RedactionKind, pattern: RegExp, group = 0, scope: 'line' | 'block' = 'line', applies = ALL): RedactionRule {
  return rule(kind, (text, replace) => replaceGroup(text, pattern, group, (found) => replace(found)), scope, applies);
}

const withIndices = new WeakMap<RegExp, RegExp>();

/** Replaces group `group` of every match (the whole match when 0), unless it is empty or already a marker. */
function replaceGroup(text: string, pattern: RegExp, group: number, replace: (found: string) => string): string {
  let re = withIndices.get(pattern);
  if (!re) withIndices.set(pattern, (re = new RegExp(pattern.source, pattern.flags.includes('d') ? pattern.flags : `${pattern.flags}d`)));
  let out = '';
  let at = 0;
  for (const m of text.matchAll(re)) {
    const span = m.indices?.[group];
    const found = m[group];
    if (!span || found === undefined || found === '' || isMarker(found) || span[0] < at) continue;
    out += text.slice(at, span[0]) + replace(found);
    at = span[1];
  }
  return out + text.slice(at);
}

// ---- Blocks: what spans lines ----

/**
 * A private key in PEM, PGP or SSH2 armour; its END line may be missing, and it may sit in a string with `\n`
 * escapes.
 */
const KEY_BEGIN = /-{4,5} ?BEGIN ([A-Z0-9 ]*(?:PRIVATE|SECRET) KEY(?: BLOCK)?) ?-{4,5}/g;
const KEY_BODY = /(?:(?:Proc-Type|DEK-Info|Comment|Version|Charset|Hash|Subject):[^\n\\]*|[A-Za-z0-9+/=]+\\?|(?:\r?\n|\\r|\\n)[ \t]*)*/y;

const NEXT_BEGIN = /-{4,5} ?BEGIN /g;

function armouredKeys(text: string, replace: Replace): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(KEY_BEGIN)) {
    if (m.index < at) continue;
    const after = m.index + m[0].length;
    // The END line is looked for only up to the next key, so each part of the text is read once.
    NEXT_BEGIN.lastIndex = after;
    const next = NEXT_BEGIN.exec(text)?.index ?? text.length;
    const end = new RegExp(`-{4,5} ?END ${escapeRegExp(m[1]!)} ?-{4,5}`).exec(text.slice(after, next));
    let stop: number;
    if (end) stop = after + end.index + end[0].length;
    else {
      KEY_BODY.lastIndex = after;
      KEY_BODY.exec(text);
      stop = KEY_BODY.lastIndex;
      while (stop > m.index && /[\r\n \t]/.test(text[stop - 1]!)) stop--;
    }
    out += text.slice(at, m.index) + replace(text.slice(m.index, stop), 'private_key');
    at = stop;
  }
  return out + text.slice(at);
}

/** A PuTTY key file: its header line and every header or base64 line after it. */
const PUTTY = /PuTTY-User-Key-File-\d+:[^\n]*(?:\r?\n(?:[\w-]+:[^\n]*|[A-Za-z0-9+/=]+[ \t]*))*/g;

/** `<password>…</password>` and the like, on one line or several. */
const XML_ELEMENT = /<([A-Za-z_][\w:.-]*)(\s[^<>]*)?>(<!\[CDATA\[[\s\S]*?\]\]>|[^<]*)<\/\1\s*>/g;
function xmlElements(text: string, replace: Replace): string {
  return text.replace(XML_ELEMENT, (whole, name: string, attrs: string | undefined, value: string) => {
    const kind = secretKeyKind(name.replace(/^.*:/, ''));
    if (!kind || value.trim() === '' || isMarker(value.trim())) return whole;
    return `<${name}${attrs ?? ''}>${replace(value.trim(), kind)}</${name}>`;
  });
}

/** `<add key="DbPassword" value="…"/>`, `<property name="password" value="…"/>`: a name and its value as attributes. */
const XML_NAMED_VALUE = /\b((?:key|name)\s*=\s*"([^"]*)"\s+value\s*=\s*")([^"]*)"/gi;
const xmlNamedValues = (text: string, replace: Replace): string =>
  text.replace(XML_NAMED_VALUE, (whole, head: string, name: string, value: string) => {
    const kind = secretKeyKind(name);
    return !kind || value === '' || isMarker(value) ? whole : `${head}${replace(value, kind)}"`;
  });

/** A YAML block scalar under a credential key, in a text that is not parsed as YAML (a log, a template). */
const YAML_BLOCK = /^([ \t]*)((?:- )?["']?([\w.-]+)["']?[ \t]*:[ \t]*[|>][-+0-9]*[ \t]*\r?\n)((?:\1[ \t]+[^\n]*(?:\n|$)|[ \t]*\r?\n)+)/gm;
function yamlBlocks(text: string, replace: Replace): string {
  return text.replace(YAML_BLOCK, (whole, indent: string, head: string, key: string, body: string) => {
    const kind = secretKeyKind(key);
    if (!kind || body.trim() === '') return whole;
    const inner = /^[ \t]*/.exec(body.split('\n').find((l) => l.trim() !== '') ?? '')![0];
    return `${indent}${head}${inner}${replace(body.trim(), kind)}${body.endsWith('\n') ? '\n' : ''}`;
  });
}

// ---- Lines: context first ----

/** `client-key-data`'s value, and any other base64 of a PEM private key. */
const BASE64_PEM = /LS0tLS1CRUdJTi[A-Za-z0-9+/=]{20,}/g;
const isBase64Key = (s: string): boolean => Buffer.from(s, 'base64').toString('latin1').includes('PRIVATE KEY');

/** A raw key: a long hex or base64 value behind a name that says it is a private or secret key. */
const RAW_KEY =
  /(?<![\w.-])([\w.-]*(?:private|priv|secret|signing|seed)[_-]?key\b["']?\s*[:=]\s*["']?)([A-Fa-f0-9]{32,}|[A-Za-z0-9+/]{32,}={0,2})/gi;

/**
 * Password hashes: bcrypt, argon2, crypt(3)'s SHA and MD5 forms, htpasswd's apr1, and the console's own
 * `scrypt$N$r$p$salt$hash` (accounts/passwords.ts).
 */
const PASSWORD_HASH =
  /\$(?:2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+|(?:[156]|apr1)\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86})|\bscrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*/g;

/** The console's own API tokens (accounts/api-tokens.ts: `navin_` and 32 random bytes in base64url). */
const CONSOLE_TOKEN = /(?<![\w-])navin_[A-Za-z0-9_-]{43}(?![\w-])/g;
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g;

/** The rest of a header's value: to the quote that opened it, or to the end of the line. */
function headerValueEnd(text: string, from: number, quote: string): number {
  if (quote) {
    for (let i = from; i < text.length; i++) if (text[i] === quote[quote.length - 1] && text[i - 1] !== '\\') return i;
  }
  const nl = text.indexOf('\n', from);
  let end = nl < 0 ? text.length : nl;
  while (end > from && /\s/.test(text[end - 1]!)) end--;
  if (quote) while (end > from && text[end - 1] === '\\') end--;
  return end;
}

/**
 * Each header `header` finds, its value (after the match, to where headerValueEnd says it ends, the quote it
 * opened being group `quoteGroup`) rewritten; `rewrite` returns null to leave a value as it is.
 */
function rewriteHeaderValues(
  text: string,
  header: RegExp,
  quoteGroup: number,
  rewrite: (value: string, m: RegExpExecArray) => string | null,
): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(header)) {
    if (m.index < at) continue;
    const from = m.index + m[0].length;
    const end = headerValueEnd(text, from, m[quoteGroup]!);
    const value = rewrite(text.slice(from, end), m);
    if (value === null) continue;
    out += text.slice(at, from) + value;
    at = end;
  }
  return out + text.slice(at);
}

/** `Authorization: <scheme> <credentials>` (Bearer, Basic, Digest, AWS4-HMAC-SHA256, …): all after the scheme. */
const AUTHORIZATION = /\b((?:Proxy-)?Authorization)(\\?["']?)([ \t]*[:=][ \t]*)(\\?["']?)(?:([A-Za-z][\w-]*)[ \t]+(?=\S))?/gi;
function authorization(text: string, replace: Replace): string {
  return rewriteHeaderValues(text, AUTHORIZATION, 4, (value) => (value === '' || isMarker(value) ? null : replace(value, 'credential')));
}

/** `Cookie: a=1; b=2` (every value) and `Set-Cookie: id=…; Path=/` (the cookie's own value). */
const COOKIE = /\b(Set-)?Cookie(\\?["']?)[ \t]*[:=][ \t]*(\\?["']?)/gi;
function cookies(text: string, replace: Replace): string {
  return rewriteHeaderValues(text, COOKIE, 3, (value, m) => {
    let first = true;
    return value.replace(/([^=;\s]+)=([^;]*)/g, (pair, name: string, v: string) => {
      if (m[1] && !first) return pair;
      first = false;
      return v.trim() === '' || isMarker(v.trim()) ? pair : `${name}=${replace(v.trim(), 'token')}`;
    });
  });
}

/** A command-line option that carries a secret: `--password X`, `--token=X`, `-password X`. */
const OPTION =
  /(?<![\w-])(--?[\w-]*?(?:password|passwd|pass|pwd|secret|token|api-?key|access-?key|auth-?key|credentials?|private-?key)(?![\w-])(?:=|[ \t]+))(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"']+))/gi;
function options(text: string, replace: Replace): string {
  return text.replace(OPTION, (whole, head: string, dq?: string, sq?: string, bare?: string) => {
    const value = dq ?? sq ?? bare ?? '';
    if (value === '' || isMarker(value) || value.startsWith('-')) return whole;
    const q = dq !== undefined ? '"' : sq !== undefined ? "'" : '';
    return `${head}${q}${replace(value, 'credential')}${q}`;
  });
}

/** MySQL's `-pSECRET` (the password glued to its option), on a line that runs a MySQL client. */
const MYSQL_LINE = /\b(?:mysql\w*|mariadb[\w-]*)\b/i;
const MYSQL_P = /(?<=^|\s)(-p)(?!\s)([^\s"']+|"[^"\n]*"|'[^'\n]*')/g;
const mysqlPassword = (text: string, replace: Replace): string =>
  MYSQL_LINE.test(text) ? text.replace(MYSQL_P, (_w, p: string, v: string) => (isMarker(v) ? _w : p + replace(v, 'credential'))) : text;

/** Clients that take a password in an option of their own: `curl -u user:pw`, `redis-cli -a pw`, `sshpass -p pw`. */
const TOOL_OPTIONS: RegExp[] = [
  /(\b(?:curl|wget|http)\b[^;|&\n]*?[ \t](?:-u|--user|--proxy-user|--http-user)[ \t=]+["']?[^\s:"']*:)([^\s"']+)/g,
  /(\b(?:curl|wget)\b[^;|&\n]*?[ \t]--(?:http-|proxy-)?password[ \t=]+["']?)([^\s"']+)/g,
  /(\bredis-cli\b[^;|&\n]*?[ \t]-a[ \t]+["']?)([^\s"']+)/g,
  /(\bsshpass\b[^;|&\n]*?[ \t]-p[ \t]*["']?)([^\s"']+)/g,
];
function toolOptions(text: string, replace: Replace): string {
  return TOOL_OPTIONS.reduce((out, option) => replaceGroup(out, option, 2, (found) => replace(found, 'credential')), text);
}

/** A JSON Web Key's private members (`d`, `p`, `q`, `dp`, `dq`, `qi`, and `k` of a symmetric key). */
const JWK_PRIVATE = /(\\?"(?:d|p|q|dp|dq|qi|k)\\?"[ \t]*:[ \t]*\\?")([A-Za-z0-9_-]{16,})/g;

/** `key = value`, `key: value`, `"key": "value"`, `\"key\":\"value\"`, `key="value"` for a key naming a secret. */
const PAIR =
  /(?<![\w.-])([A-Za-z_][\w.-]*)(\\*["']?)([ \t]*[:=][ \t]*)(?:(\\+)"(.*?)\\+"|"([^"\r\n]*)"|'([^'\r\n]*)'|([^\s,;"'{}[\]<>&]+))/g;
function pairs(text: string, replace: Replace): string {
  return text.replace(
    PAIR,
    (whole, key: string, q1: string, sep: string, esc?: string, ev?: string, dq?: string, sq?: string, bare?: string) => {
      const kind = secretKeyKind(key);
      if (!kind || /^(?:proxy-)?authorization$|cookie$/i.test(key)) return whole;
      const head = key + q1 + sep;
      if (esc !== undefined) return ev === '' || isMarker(ev!) ? whole : `${head}${esc}"${replace(ev!, kind)}${esc}"`;
      if (dq !== undefined) return dq === '' || isMarker(dq) ? whole : `${head}"${replace(dq, kind)}"`;
      if (sq !== undefined) return sq === '' || isMarker(sq) ? whole : `${head}'${replace(sq, kind)}'`;
      return isMarker(bare!) ? whole : `${head}${replace(bare!, kind)}`;
    },
  );
}

/** A config line `password = two words` holds its value to the end of the line (less a trailing comment). */
const CONFIG_LINE = /^([ \t]*(?:export[ \t]+|-[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*[:=][ \t]*)([^"'\s{[|>][^\r\n]*?)(?=[ \t]+#|[ \t]*\r?$)/gm;
function configLines(text: string, replace: Replace): string {
  return text.replace(CONFIG_LINE, (whole, head: string, key: string, value: string) => {
    const kind = secretKeyKind(key);
    if (!kind || /^(?:proxy-)?authorization$|cookie$/i.test(key) || isMarker(value)) return whole;
    return head + replace(value, kind);
  });
}

/**
 * `scheme://user:password@host`: the password may hold `/` or `@`, so the host is what follows the last `@`
 * of the URL's first word; `host:8080/@scope` is a port and a path, not a password.
 */
const URL_START = /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/([^\s"'<>`]+)/gi;
function urlCredentials(text: string, replace: Replace): string {
  return text.replace(URL_START, (whole, rest: string) => {
    const query = rest.search(/[?#]/);
    const at = rest.lastIndexOf('@', query < 0 ? rest.length : query);
    if (at < 0 || (query >= 0 && at > query)) return whole;
    const userinfo = rest.slice(0, at);
    const colon = userinfo.indexOf(':');
    if (colon < 0 || /[/?#]/.test(userinfo.slice(0, colon)) || /^\d{1,5}(?:[/?#]|$)/.test(userinfo.slice(colon + 1))) return whole;
    if (!/^[\w.-]+|^\[[\w:.]+\]/.test(rest.slice(at + 1))) return whole;
    const password = userinfo.slice(colon + 1);
    if (password === '' || isMarker(password)) return whole;
    const start = whole.length - rest.length;
    return whole.slice(0, start) + userinfo.slice(0, colon + 1) + replace(password, 'credential') + rest.slice(at);
  });
}

/** A webhook URL is its own credential: everything after the part that names the service. */
const WEBHOOK =
  /\bhttps?:\/\/(?:hooks\.slack\.com\/(?:services|workflows|triggers)\/|discord(?:app)?\.com\/api\/webhooks\/|[\w-]+\.webhook\.office\.com\/webhookb2\/|outlook\.office\.com\/webhook\/|chat\.googleapis\.com\/v1\/spaces\/|api\.telegram\.org\/bot|events\.pagerduty\.com\/integration\/|maker\.ifttt\.com\/trigger\/[^\s/]+\/with\/key\/|[\w.-]*webhooks?[\w-]*\.[\w.-]+(?::\d+)?\/|[^\s/"'<>]+\/(?:[^\s"'<>]*\/)?(?:hooks?|webhooks?)\/)([^\s"'<>`)]+)/gi;
/**
 * A signed URL's signature and credential, secrets passed in a query string, and the console's one-time links
 * (`#setup=`, `#ticket=`).
 */
const QUERY_SECRET =
  /[?&#](?:X-Amz-Signature|X-Amz-Credential|X-Goog-Signature|sig|signature|code|key|access_token|token|ticket|setup)=([^&\s#"'<>]+)/gi;

export interface RuleInputs {
  secrets: readonly string[];
  userNames: readonly string[];
  phoneRegion: CountryCode;
  secretRules: readonly SecretRule[];
  pseudonym: (name: string) => string;
}

export function defaultRules(input: RuleInputs): RedactionRule[] {
  const secrets = [...new Set(input.secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  const rules: RedactionRule[] = [rule('private_key', armouredKeys, 'block'), regexRule('private_key', PUTTY, 0, 'block')];
  if (secrets.length > 0) rules.push(regexRule('secret', new RegExp(secrets.map(escapeRegExp).join('|'), 'g'), 0, 'block'));
  rules.push(
    rule('credential', xmlElements, 'block'),
    rule('credential', yamlBlocks, 'block'),
    rule('private_key', (text, replace) => text.replace(BASE64_PEM, (m) => (isBase64Key(m) ? replace(m) : m))),
    regexRule('private_key', RAW_KEY, 2),
    regexRule('token', CONSOLE_TOKEN),
    regexRule('credential', PASSWORD_HASH),
    vendorRules(input.secretRules),
    regexRule('token', JWT),
    rule('credential', authorization),
    rule('token', cookies),
    regexRule('token', WEBHOOK, 1),
    rule('credential', urlCredentials),
    regexRule('token', QUERY_SECRET, 1),
    rule('credential', options),
    rule('credential', mysqlPassword),
    rule('credential', toolOptions),
    regexRule('private_key', JWK_PRIVATE, 2),
    rule('credential', configLines),
    rule('credential', xmlNamedValues),
    rule('credential', pairs),
    regexRule('token', /(\bBearer[ \t]+)([A-Za-z0-9._~+/=-]{8,})/g, 2),
    ...personal(input.phoneRegion),
  );
  // Last: a pseudonym is never read again as a phone, a card or a token.
  const names = [...new Set(input.userNames.filter((s) => s.length >= 2).map((n) => n.normalize('NFC')))].sort(
    (a, b) => b.length - a.length,
  );
  if (names.length > 0) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_@])(?:${names.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_@])`, 'giu');
    rules.push(rule('user_name', (text, replace) => text.replace(pattern, (name) => (replace(name), input.pseudonym(name)))));
  }
  return rules;
}

/** The data rule set: each rule tried only on the records that hold one of its keywords. */
function vendorRules(set: readonly SecretRule[]): RedactionRule {
  return rule('token', (text, replace) => {
    const lower = text.toLowerCase();
    let out = text;
    for (const r of set) {
      if (!r.keywords.some((k) => lower.includes(k))) continue;
      out = replaceGroup(out, r.pattern, r.group, (found) => replace(found, r.kind));
    }
    return out;
  });
}

/** Each form starts where a run of the characters it begins with starts, so a long run is read once, not at every character. */
const LOCAL = String.raw`(?<![\p{L}\p{N}._%+'-])[\p{L}\p{N}._%+'-]+`;
const DOMAIN = String.raw`(?:[\p{L}\p{N}-]+\.)+\p{L}{2,}`;
const EMAIL = new RegExp(
  [
    String.raw`(?<![\p{L}\p{N}])"[^"\n]{1,64}"@(?:${DOMAIN}|\[[\d.:A-Fa-f]+\])`,
    String.raw`${LOCAL}@(?:${DOMAIN}|\[[\d.:A-Fa-f]+\])`,
    String.raw`${LOCAL}(?:%40|＠|&#64;|&commat;)${DOMAIN}`,
    String.raw`${LOCAL}[ \t]*[[({<]at[\])}>][ \t]*[\p{L}\p{N}-]+(?:[ \t]*(?:[[({<]dot[\])}>]|\.)[ \t]*[\p{L}\p{N}-]+)+`,
    String.raw`${LOCAL} at [\p{L}\p{N}-]+(?: dot [\p{L}\p{N}-]+)+`,
  ].join('|'),
  'gu',
);
const IPV4 = /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\d.])/g;
const H = '[A-Fa-f0-9]{1,4}';
/** The full form (8 groups) or a compressed one (with its ::), so a time of day (03:25:10) is never read as one. */
const IPV6 = new RegExp(
  `(?<![:\\w])(?:(?:${H}:){7}${H}|(?:${H}:){1,6}:(?:${H}:){0,5}${H}|(?:${H}:){1,7}:|::(?:${H}:){0,6}${H})(?![:\\w])`,
  'g',
);

function personal(region: CountryCode): RedactionRule[] {
  return [
    regexRule('email', EMAIL),
    rule('iban', (text, replace) => {
      let out = '';
      let at = 0;
      for (const m of text.matchAll(IBAN_START)) {
        if (m.index < at) continue;
        const iban = ibanAt(text.slice(m.index, m.index + 48));
        if (!iban) continue;
        out += text.slice(at, m.index) + replace(iban);
        at = m.index + iban.length;
      }
      return out + text.slice(at);
    }),
    rule('card', (text, replace) => text.replace(CARD_CANDIDATE, (m) => (isCardNumber(m) ? replace(m) : m))),
    regexRule('ip', IPV4, 0, 'line', LOGS),
    regexRule('ip', IPV6, 0, 'line', LOGS),
    rule('phone', (text, replace) => text.replace(PHONE_CANDIDATE, (m) => (isPhoneNumber(m.trim(), region) ? replace(m) : m))),
  ];
}
