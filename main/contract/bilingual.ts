// A text in both languages of the console and the reports: checks say why in English and French at once, the
// reader (HTML page, console) picks one and the signed JSON keeps both.
import { z } from './zod';

export const bilingualSchema = z.object({ en: z.string(), fr: z.string() });
export type Bilingual = z.infer<typeof bilingualSchema>;

export const bilingual = (en: string, fr: string): Bilingual => ({ en, fr });

/** One text of a message table: a phrase, or a phrase built from the values it names. */
type Text = string | ((...values: never[]) => string);

/** A table of texts with each entry in both languages: a Bilingual, or a function giving one. */
export type BilingualTexts<T> = {
  [K in keyof T]: T[K] extends (...values: infer A) => string ? (...values: A) => Bilingual : Bilingual;
};

/**
 * The English and French tables of the same texts, side by side (as reports/report-i18n.ts keeps the words of
 * the report page): checks say `TEXT.notInMirror(list)` and the wording lives in one place per folder.
 */
export function bilingualTexts<T extends { [K in keyof T]: Text }>(en: T, fr: T): BilingualTexts<T> {
  const table: Record<string, unknown> = {};
  for (const key of Object.keys(en) as (keyof T & string)[]) {
    const e = en[key] as Text;
    const f = fr[key] as Text;
    table[key] =
      typeof e === 'function'
        ? (...values: never[]) => bilingual(e(...values), (f as (...v: never[]) => string)(...values))
        : bilingual(e, f as string);
  }
  return table as BilingualTexts<T>;
}
