// The frame of the screens shown before sign-in (brand, a card, the language switch) and the form of its card.
import type { FormEvent, ReactElement, ReactNode } from 'react';
import type { ApiError } from '../../api/client';
import { Brand } from '../../components/Brand';
import { ErrorNotice } from '../../components/ErrorNotice';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { useT } from '../../app/stores';

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

/** The card's form (`<name>-form`), the manager's refusal of it above (`<name>-error`); the fields are checked by
 * the screen, not by the browser. */
export function AuthForm({
  name,
  error,
  onSubmit,
  children,
}: {
  name: string;
  error: ApiError | null;
  onSubmit: (e: FormEvent) => Promise<void>;
  children: ReactNode;
}): ReactElement {
  return (
    <>
      {error ? <ErrorNotice error={error} testId={`${name}-error`} /> : null}
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid={`${name}-form`}>
        {children}
      </form>
    </>
  );
}
