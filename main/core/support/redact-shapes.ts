// The tests that tell a secret or a personal number from a value that only looks like one: card numbers (issuer
// prefix, length, grouping and Luhn), IBANs (country length and mod-97), phone numbers (a number dialled as such:
// a leading + or 00, a trunk 0, or the North American grouping, valid for a region), and the names of keys whose
// values are credentials. A bare run of digits is a size, a count or a time, never a phone.
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { RedactionKind } from './redact-types';

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length >= 13 && sum % 10 === 0;
}

/** Issuer prefixes and the lengths their cards have (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro). */
const CARD_BRANDS: [RegExp, number[]][] = [
  [/^4/, [13, 16, 19]],
  [/^(?:5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/, [16]],
  [/^3[47]/, [15]],
  [/^(?:6011|65|64[4-9])/, [16, 19]],
  [/^35(?:2[89]|[3-8]\d)/, [16, 19]],
  [/^3(?:0[0-5]|[689])/, [14, 16, 19]],
  [/^62/, [16, 17, 18, 19]],
  [/^(?:50|5[6-9]|6)/, [12, 13, 14, 15, 16, 17, 18, 19]],
];

/** A card number as written: digits alone, or in groups joined by one kind of separator. */
export const CARD_CANDIDATE = /(?<![\w.,-])\d{4}(?:([ .-]?)\d{2,6})(?:\1\d{1,6}){0,4}(?![\w-]|[.,]\d)/g;

export function isCardNumber(text: string): boolean {
  const digits = text.replace(/[ .-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) return false;
  return CARD_BRANDS.some(([prefix, lengths]) => prefix.test(digits) && lengths.includes(digits.length));
}

const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AT: 20, BA: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24, FI: 18,
  FO: 18, FR: 27, GB: 22, GI: 23, GL: 18, GR: 27, HR: 21, HU: 28, IE: 22, IL: 23, IS: 26, IT: 27, LI: 21, LT: 20,
  LU: 20, LV: 21, MA: 28, MC: 27, ME: 22, MK: 19, MT: 31, MU: 30, NL: 18, NO: 15, PL: 28, PT: 25, RO: 24, RS: 22,
  SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TN: 24, TR: 26,
}; // prettier-ignore

/** Where an IBAN may start: two letters and two check digits; letters and digits follow, whole or in fours. */
export const IBAN_START = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?=[ ]?[A-Z0-9])/g;

/** The IBAN at the start of a text, as written (with its spaces), or null. */
export function ibanAt(candidate: string): string | null {
  const length = IBAN_LENGTHS[candidate.slice(0, 2)];
  if (length === undefined) return null;
  let compact = '';
  let end = 0;
  while (end < candidate.length && compact.length < length) {
    const c = candidate[end++]!;
    if (c !== ' ') compact += c;
  }
  if (compact.length !== length || !/^[A-Z0-9]+$/.test(compact) || /^[A-Za-z0-9]$/.test(candidate[end] ?? '')) return null;
  const moved = compact.slice(4) + compact.slice(0, 4);
  let rest = 0;
  for (const c of moved) {
    const v = c >= 'A' ? String(c.charCodeAt(0) - 55) : c;
    for (const d of v) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1 ? candidate.slice(0, end) : null;
}

/** A run that could be a phone number: digits with the separators numbers are written with, on one line. */
export const PHONE_CANDIDATE = /(?<![\w+.,/#-])(?:\(?\+|\b00)?\(?\d[\d \t().-]{5,24}\d(?![\w:/-]|[.,]\d)/g;
const REGIONS: CountryCode[] = ['FR', 'GB', 'DE', 'BE', 'CH', 'LU', 'ES', 'IT', 'NL', 'US'];
/** Regions whose national numbers have no trunk 0 (a Spanish 612 34 56 78, an Italian mobile 347 123 4567). */
const NO_TRUNK: CountryCode[] = ['ES', 'IT', 'PT'];
const MAC = /^\d{2}([-.])\d{2}(?:\1\d{2}){4}$/;
/** 1 073 741 824: a number with its thousands apart, not a phone. */
const THOUSANDS = /^\d{1,3}(?:[ .]\d{3})+$/;
const DATE = /^(?:\d{4}[./-]\d{1,2}[./-]\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4})$/;
const NANP = /^(?:\+?1[ .-]?)?(?:\(\d{3}\)[ ]?|\d{3}[ .-])\d{3}[ .-]\d{4}$/;

/** Whether a candidate is a phone number as people write one, valid in the given region or a common one. */
export function isPhoneNumber(candidate: string, region: CountryCode): boolean {
  const digits = candidate.replace(/\D/g, '');
  if (digits.length < 8 || DATE.test(candidate) || MAC.test(candidate) || /^\d+\.\d+$/.test(candidate)) return false;
  const international = /^(?:\(?\+|00)/.test(candidate);
  if (international) {
    const text = candidate.replace(/^\(\+(\d{1,3})\)/, '+$1').replace(/^00/, '+');
    return parsePhoneNumberFromString(text.replace(/\(0\)/, ''))?.isValid() ?? false;
  }
  if (/^[1-9(]/.test(candidate)) {
    // Without a trunk 0: the North American grouping, or groups that are not thousands in a region that dials so.
    if (!NANP.test(candidate) && !/^\d{3}[ .-]/.test(candidate)) return false;
    if (THOUSANDS.test(candidate) || digits.length < 9) return false;
    return [...(NANP.test(candidate) ? (['US', 'CA'] as CountryCode[]) : []), ...NO_TRUNK].some(
      (r) => parsePhoneNumberFromString(candidate, r)?.isValid() ?? false,
    );
  }
  // Unseparated, a short run with a trunk 0 is as often a date (04122026) or a padded count as a phone.
  if (/^\d+$/.test(candidate) && digits.length < 10) return false;
  return [region, ...REGIONS.filter((r) => r !== region)].some((r) => parsePhoneNumberFromString(candidate, r)?.isValid() ?? false);
}

const CREDENTIAL_WORDS: Record<string, RedactionKind> = {
  password: 'credential', passwords: 'credential', passwd: 'credential', pwd: 'credential', pass: 'credential', passphrase: 'credential',
  secret: 'credential', credential: 'credential', credentials: 'credential', authorization: 'credential',
  token: 'token', cookie: 'token', apikey: 'credential',
}; // prettier-ignore
const CREDENTIAL_PAIRS: Record<string, RedactionKind> = {
  'api key': 'credential', 'access key': 'credential', 'secret key': 'credential', 'auth key': 'credential',
  'private key': 'private_key', 'signing key': 'private_key', 'key data': 'private_key', 'session id': 'token',
}; // prettier-ignore

/** Words after the name of a secret that say how it is written (`private_key_b64`, `password_value`). */
const QUALIFIERS = new Set([
  'b64',
  'base64',
  'pem',
  'hex',
  'encoded',
  'value',
  'raw',
  'content',
  'contents',
  'str',
  'string',
  'plain',
  'plaintext',
]);

/**
 * The kind of secret a key names (`password`, `DB_PASSWORD`, `dbPassword`, `client-key-data`, `X-Api-Key`), by
 * its last words, or null: `password_file`, `token_ttl` or `bypass` name no secret.
 */
export function secretKeyKind(key: string): RedactionKind | null {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  while (words.length > 1 && QUALIFIERS.has(words.at(-1)!)) words.pop();
  const last = words.at(-1);
  if (last === undefined) return null;
  const pair = CREDENTIAL_PAIRS[words.slice(-2).join(' ')];
  if (pair) return pair;
  if (CREDENTIAL_WORDS[last]) return CREDENTIAL_WORDS[last];
  // One word with a prefix glued on: PGPASSWORD, dbpassword, clientsecret, accesstoken.
  if (/(?:password|passwd|secret)$/.test(last)) return 'credential';
  if (/token$/.test(last)) return 'token';
  return null;
}
