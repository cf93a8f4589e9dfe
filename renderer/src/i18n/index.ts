// Translation and locale-aware formatting. `t(key, params)` is typed from the English dictionary: the key must
// exist, and a message with {placeholders} requires exactly those params.
import { en, fr, type MessageKey, type Messages } from './dictionaries';

export type Locale = 'en' | 'fr';
export const LOCALES: readonly Locale[] = ['en', 'fr'];
export type { MessageKey };

export const dictionaries: Record<Locale, Record<MessageKey, string>> = { en, fr };

/** The placeholder names of a message literal: 'Hello {name}, {count}' → 'name' | 'count'. */
export type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
export type ParamsOf<K extends MessageKey> = Placeholders<Messages[K]>;
export type ParamValue = string | number;
export type TArgs<K extends MessageKey> = [ParamsOf<K>] extends [never] ? [] : [params: Record<ParamsOf<K>, ParamValue>];

export type Translator = <K extends MessageKey>(key: K, ...args: TArgs<K>) => string;

const PLACEHOLDER = /\{([a-zA-Z0-9_]+)\}/g;

export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(en, key);
}

export function placeholdersOf(message: string): string[] {
  return [...message.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '').sort();
}

export function translate<K extends MessageKey>(locale: Locale, key: K, ...args: TArgs<K>): string {
  const message = dictionaries[locale][key] ?? en[key] ?? key;
  const params = args[0] as Record<string, ParamValue> | undefined;
  if (!params) return message;
  return message.replace(PLACEHOLDER, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? formatNumber(locale, value) : value;
  });
}

/** For keys computed at run time (error codes): unknown params are left as they are. */
export function translateLoose(locale: Locale, key: MessageKey, params?: Record<string, ParamValue>): string {
  return (translate as (l: Locale, k: MessageKey, p?: Record<string, ParamValue>) => string)(locale, key, params);
}

export function makeTranslator(locale: Locale): Translator {
  return (key, ...args) => translate(locale, key, ...args);
}

/** Keys with plural forms end in `.one` and `.other` (Intl.PluralRules: in French, 0 and 1 are `one`). */
type PluralBase<K = MessageKey> = K extends `${infer B}.one` ? (`${B}.other` extends MessageKey ? B : never) : never;
export type PluralKey = PluralBase;

export function translatePlural(locale: Locale, base: PluralKey, count: number): string {
  const form = pluralRules(locale).select(count) === 'one' ? 'one' : 'other';
  const key = `${base}.${form}` as MessageKey;
  return translate(locale, key as 'clusters.count.one', { count });
}

// --- Intl, cached per locale ---
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules | Intl.RelativeTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules | Intl.RelativeTimeFormat>(
  key: string,
  make: () => T,
): T {
  let v = cache.get(key) as T | undefined;
  if (!v) {
    v = make();
    cache.set(key, v);
  }
  return v;
}

const intlLocale = (locale: Locale): string => (locale === 'fr' ? 'fr-FR' : 'en-GB');

function pluralRules(locale: Locale): Intl.PluralRules {
  return cached(`plural:${locale}`, () => new Intl.PluralRules(intlLocale(locale)));
}

export function formatNumber(locale: Locale, value: number): string {
  return cached(`number:${locale}`, () => new Intl.NumberFormat(intlLocale(locale))).format(value);
}

/** Date and time of an ISO timestamp, e.g. "2 Dec 2025, 14:05" / "2 déc. 2025, 14:05". */
export function formatDateTime(locale: Locale, iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return cached(
    `datetime:${locale}`,
    () => new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium', timeStyle: 'short' }),
  ).format(d);
}

/** Full date and time with seconds and time zone, for details and tooltips. */
export function formatDateTimeLong(locale: Locale, iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return cached(
    `datetime-long:${locale}`,
    () => new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'long', timeStyle: 'long' }),
  ).format(d);
}

/** How long ago (or in how long) an ISO timestamp is from `now`, e.g. "3 minutes ago" / "il y a 3 minutes". */
export function formatRelative(locale: Locale, iso: string, now: number): string {
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  // A moment in the very near future is the manager's clock a little ahead of this one: "now".
  const diffS = t > now && t - now < 60_000 ? 0 : Math.round((t - now) / 1000);
  const abs = Math.abs(diffS);
  const rtf = cached(`relative:${locale}`, () => new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'auto' }));
  if (abs < 45) return rtf.format(diffS, 'second');
  if (abs < 45 * 60) return rtf.format(Math.round(diffS / 60), 'minute');
  if (abs < 22 * 3600) return rtf.format(Math.round(diffS / 3600), 'hour');
  return rtf.format(Math.round(diffS / 86400), 'day');
}
