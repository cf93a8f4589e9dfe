// The frame of the screens shown before sign-in: brand, a card, the language switch.
import type { ReactElement, ReactNode } from 'react';
import { Brand } from '../components/Brand';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { useT } from '../app/stores';

export interface AuthLayoutProps {
  titleId: string;
  /** The card's heading (h1), labelling the card. */
  title: ReactNode;
  titleTestId?: string;
  children: ReactNode;
}

export function AuthLayout({ titleId, title, titleTestId, children }: AuthLayoutProps): ReactElement {
  const t = useT();
  return (
    <div className="auth">
      <main className="auth-card" aria-labelledby={titleId}>
        <header className="auth-header">
          <Brand />
          <p className="auth-tagline">{t('app.tagline')}</p>
        </header>
        <h1 id={titleId} className="auth-title" data-testid={titleTestId}>
          {title}
        </h1>
        {children}
      </main>
      <footer className="auth-footer">
        <LanguageSwitch name="auth-language" legend={t('login.language')} compact />
      </footer>
    </div>
  );
}
