// The two languages, each written in its own language, as a radio group.
import type { ReactElement } from 'react';
import { LOCALES, type Locale } from '../i18n';
import { uiStore, useT, useUi } from '../app/stores';

const NATIVE: Record<Locale, 'settings.language.en' | 'settings.language.fr'> = {
  en: 'settings.language.en',
  fr: 'settings.language.fr',
};
const LANG_ATTR: Record<Locale, string> = { en: 'en', fr: 'fr' };

export function LanguageSwitch({ name, legend, compact }: { name: string; legend: string; compact?: boolean }): ReactElement {
  const t = useT();
  const locale = useUi((s) => s.locale);
  return (
    <fieldset className={compact ? 'segmented segmented-compact' : 'segmented'} data-testid={`${name}-switch`}>
      <legend className={compact ? 'visually-hidden' : 'segmented-legend'}>{legend}</legend>
      {LOCALES.map((l) => (
        <label key={l} className="segmented-option" lang={LANG_ATTR[l]}>
          <input type="radio" name={name} value={l} checked={locale === l} onChange={() => uiStore.getState().setLocale(l)} />
          <span>{t(NATIVE[l])}</span>
        </label>
      ))}
    </fieldset>
  );
}
