// A text in both languages of the console and the reports: checks say why in English and French at once, the
// reader (HTML page, console) picks one and the signed JSON keeps both.

export interface Bilingual {
  en: string;
  fr: string;
}

export const bilingual = (en: string, fr: string): Bilingual => ({ en, fr });
