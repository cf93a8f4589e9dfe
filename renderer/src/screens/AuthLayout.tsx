// The frame of the screens shown before sign-in: brand, a card, the language switch.
import type { ReactElement, ReactNode } from 'react';
import { Brand } from '../components/Brand';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { useT } from '../app/stores';

export function AuthLayout({ titleId, children }: { titleId: string; children: ReactNode }): ReactElement {
  const t = useT();
  return (
    <div className="auth">
      <main className="auth-card" aria-labelledby={titleId}>
        <header className="auth-header">
          <Brand />
          <p className="auth-tagline">{t('app.tagline')}</p>
        </header>
        {children}
      </main>
      <footer className="auth-footer">
        <LanguageSwitch name="auth-language" legend={t('login.language')} compact />
      </footer>
    </div>
  );
}
