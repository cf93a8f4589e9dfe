// The manager's texts in both languages (check titles and reasons): the console shows the operator's.
import type { Bilingual } from '../api/types';
import type { Locale } from '../i18n';

export function pickText(text: Bilingual | string | null | undefined, locale: Locale): string {
  if (text === null || text === undefined) return '';
  if (typeof text === 'string') return text;
  return text[locale] || text.en || '';
}
