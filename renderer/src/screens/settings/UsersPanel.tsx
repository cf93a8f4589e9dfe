// Local accounts, for administrators: who can sign in, with which role and whether with a second factor,
// adding an account, and resetting the second factor of one who lost it.
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import type { Role } from '../../../../preload/api';
import { tokensStore, usersStore, useFormat, useSession, useT, useTokens, useUsers } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { MIN_PASSWORD_LENGTH } from '../../api/validation';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Icon } from '../../components/Icon';
import { TokensPanel } from './TokensPanel';

const ROLES: readonly Role[] = ['viewer', 'operator', 'admin'];

export function UsersPanel(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const items = useUsers((s) => s.items);
  const status = useUsers((s) => s.status);
  const error = useUsers((s) => s.error);
  const mfaReset = useUsers((s) => s.mfaReset);
  const me = useSession((s) => s.user?.name ?? null);
  const tokensOf = useTokens((s) => s.user);
  const [resetting, setResetting] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [announce, setAnnounce] = useState('');
  const addRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    void usersStore.getState().load();
  }, []);

  return (
    <section className="panel users-panel" aria-labelledby="users-title" data-testid="users-panel">
      <div className="panel-head">
        <h2 id="users-title" className="panel-title">
          {t('users.title')}
        </h2>
        <button
          ref={addRef}
          type="button"
          className="btn btn-primary btn-sm"
          onClick={() => setAdding((v) => !v)}
          aria-expanded={adding}
          data-testid="add-user"
        >
          <Icon name="plus" />
          {t('users.add')}
        </button>
      </div>
      <p className="help">{t('users.help')}</p>
      {adding ? (
        <AddUserForm
          onDone={(name) => {
            setAdding(false);
            if (name) setAnnounce(t('users.added', { name }));
            requestAnimationFrame(() => addRef.current?.focus());
          }}
        />
      ) : null}
      <p role="status" className="help" data-testid="users-announcement">
        {announce}
      </p>
      {error ? <ErrorNotice error={error} testId="users-error" /> : null}
      {mfaReset.error ? <ErrorNotice error={mfaReset.error} testId="mfa-reset-error" /> : null}
      {resetting ? (
        <div className="confirm" role="alertdialog" aria-labelledby="mfa-reset-title" data-testid="mfa-reset-confirm">
          <p id="mfa-reset-title" className="confirm-title">
            <Icon name="alert" />
            {t('users.mfaReset.confirm', { name: resetting })}
          </p>
          <div className="form-actions">
            <button
              type="button"
              className="btn btn-danger btn-sm"
              autoFocus
              disabled={mfaReset.pending}
              data-testid="mfa-reset-confirm-button"
              onClick={() =>
                void usersStore
                  .getState()
                  .resetMfa(resetting)
                  .then((ok) => {
                    if (ok) setAnnounce(t('users.mfaReset.done', { name: resetting }));
                    setResetting(null);
                  })
              }
            >
              {t('users.mfaReset.action')}
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setResetting(null)}>
              {t('common.cancel')}
            </button>
          </div>
        </div>
      ) : null}
      {status === 'loading' && items.length === 0 ? (
        <div className="loading" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('app.loading')}
        </div>
      ) : (
        <div className="table-wrap">
          <table className="grid" data-testid="users-table">
            <caption className="visually-hidden">{t('users.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('users.col.name')}</th>
                <th scope="col">{t('users.col.role')}</th>
                <th scope="col">{t('users.col.created')}</th>
                <th scope="col">{t('users.col.mfa')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('users.col.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((u) => (
                <tr key={u.id} data-testid="user-row" data-user-name={u.name}>
                  <th scope="row">{u.name}</th>
                  <td>
                    <span className="badge" data-role={u.role}>
                      {t(`role.${u.role}`)}
                    </span>
                  </td>
                  <td>{fmt.dateTime(u.created_at)}</td>
                  <td data-testid="user-mfa" data-mfa={u.mfa_enrolled ? 'enrolled' : 'none'}>
                    {u.mfa_enrolled ? <Tone tone="ok">{t('mfa.enrolled')}</Tone> : <span className="muted">{t('mfa.notEnrolled')}</span>}
                  </td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="btn btn-sm"
                      aria-expanded={tokensOf === u.name}
                      aria-label={t('tokens.openLabel', { name: u.name })}
                      onClick={() => (tokensOf === u.name ? tokensStore.getState().close() : void tokensStore.getState().open(u.name))}
                      data-testid="user-tokens"
                    >
                      {t('tokens.open')}
                    </button>
                    {u.mfa_enrolled && u.name !== me ? (
                      <button
                        type="button"
                        className="btn btn-sm btn-danger-ghost"
                        onClick={() => setResetting(u.name)}
                        data-testid="mfa-reset"
                        aria-label={t('users.mfaReset.label', { name: u.name })}
                      >
                        {t('users.mfaReset.action')}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <TokensPanel onClose={() => tokensStore.getState().close()} />
    </section>
  );
}

function AddUserForm({ onDone }: { onDone: (name: string | null) => void }): ReactElement {
  const t = useT();
  const creation = useUsers((s) => s.creation);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('operator');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    nameRef.current?.focus();
    return () => usersStore.getState().clearCreationError();
  }, []);

  const onSubmit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (creation.pending) return;
    if (!name.trim()) return setProblem(t('setup.nameMissing'));
    if (password.length < MIN_PASSWORD_LENGTH) return setProblem(t('setup.passwordShort', { min: MIN_PASSWORD_LENGTH }));
    if (password !== confirm) return setProblem(t('setup.mismatch'));
    setProblem(null);
    const user = await usersStore.getState().create({ name: name.trim(), role, password });
    if (user) onDone(user.name);
  };

  return (
    <form
      className="form sub-form"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      data-testid="add-user-form"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onDone(null);
      }}
    >
      <div className="form-grid">
        <div className="field">
          <label htmlFor="user-name">{t('users.col.name')}</label>
          <input
            ref={nameRef}
            id="user-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            data-testid="user-name"
          />
        </div>
        <div className="field">
          <label htmlFor="user-role">{t('users.col.role')}</label>
          <select id="user-role" value={role} onChange={(e) => setRole(e.target.value as Role)} data-testid="user-role">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`role.${r}`)}
              </option>
            ))}
          </select>
          <p className="help">{t(`users.roleHelp.${role}`)}</p>
        </div>
        <div className="field">
          <label htmlFor="user-password">{t('setup.password')}</label>
          <input
            id="user-password"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            data-testid="user-password"
          />
          <p className="help">{t('setup.passwordHelp', { min: MIN_PASSWORD_LENGTH })}</p>
        </div>
        <div className="field">
          <label htmlFor="user-confirm">{t('setup.confirm')}</label>
          <input
            id="user-confirm"
            type="password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            autoComplete="new-password"
            data-testid="user-confirm"
          />
        </div>
      </div>
      <div aria-live="polite">
        {problem ? (
          <p className="field-error" data-testid="user-problem">
            {problem}
          </p>
        ) : null}
      </div>
      {creation.error ? <ErrorNotice error={creation.error} testId="add-user-error" /> : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={creation.pending} data-testid="add-user-submit">
          {creation.pending ? t('users.adding') : t('users.submit')}
        </button>
        <button type="button" className="btn" onClick={() => onDone(null)}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
