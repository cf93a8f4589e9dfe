// The API tokens of one account, opened from its row in Users: each token's label, expiry and state (active,
// expired, revoked), a new token with its lifetime (its secret shown once, to copy), and a revocation.
import { useState, type FormEvent, type ReactElement } from 'react';
import type { ApiToken } from '../../../../preload/api';
import { tokensStore, useFormat, useT, useTokens } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { CopyButton } from '../../components/CodeBlock';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Icon } from '../../components/Icon';

const LIFETIMES = [7, 30, 90, 365] as const;
const STATE_TONE: Record<ApiToken['state'], 'ok' | 'bad' | 'neutral'> = { active: 'ok', expired: 'neutral', revoked: 'bad' };

export function TokensPanel({ onClose }: { onClose: () => void }): ReactElement | null {
  const t = useT();
  const fmt = useFormat();
  const user = useTokens((s) => s.user);
  const items = useTokens((s) => s.items);
  const status = useTokens((s) => s.status);
  const error = useTokens((s) => s.error);
  const creation = useTokens((s) => s.creation);
  const created = useTokens((s) => s.created);
  const revocation = useTokens((s) => s.revocation);
  const [label, setLabel] = useState('');
  const [days, setDays] = useState<number>(90);
  const [announce, setAnnounce] = useState('');
  if (!user) return null;

  const onCreate = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (creation.pending) return;
    const made = await tokensStore.getState().create({ expires: `${days}d`, ...(label.trim() ? { name: label.trim() } : {}) });
    if (made) setLabel('');
  };

  return (
    <section className="panel tokens-panel" aria-labelledby="tokens-title" data-testid="tokens-panel" data-user-name={user}>
      <div className="panel-head">
        <h3 id="tokens-title" className="panel-title">
          {t('tokens.title', { name: user })}
        </h3>
        <button type="button" className="btn btn-sm" onClick={onClose} data-testid="tokens-close">
          {t('tokens.close')}
        </button>
      </div>
      <p className="help">{t('tokens.help')}</p>

      {created ? (
        <div className="notice notice-success" role="status" data-testid="token-created">
          <p className="notice-title">{t('tokens.created')}</p>
          <p>
            <code className="mono token-secret" data-testid="token-secret">
              {created.token}
            </code>
          </p>
          <div className="form-actions">
            <CopyButton text={created.token} testId="token-copy" />
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => tokensStore.getState().dismissCreated()}
              data-testid="token-dismiss"
            >
              {t('tokens.createdDone')}
            </button>
          </div>
        </div>
      ) : null}

      <form className="form sub-form" onSubmit={(e) => void onCreate(e)} noValidate data-testid="token-form">
        <div className="form-grid">
          <div className="field">
            <label htmlFor="token-label">{t('tokens.label')}</label>
            <input
              id="token-label"
              value={label}
              maxLength={64}
              onChange={(e) => setLabel(e.target.value)}
              autoComplete="off"
              placeholder="ci-nightly"
              data-testid="token-label"
            />
          </div>
          <div className="field">
            <label htmlFor="token-lifetime">{t('tokens.lifetime')}</label>
            <select id="token-lifetime" value={days} onChange={(e) => setDays(Number(e.target.value))} data-testid="token-lifetime">
              {LIFETIMES.map((d) => (
                <option key={d} value={d}>
                  {t('tokens.lifetime.days', { n: d })}
                </option>
              ))}
            </select>
          </div>
        </div>
        {creation.error ? <ErrorNotice error={creation.error} testId="token-create-error" /> : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary btn-sm" disabled={creation.pending} data-testid="token-create">
            <Icon name="plus" />
            {creation.pending ? t('tokens.creating') : t('tokens.create')}
          </button>
        </div>
      </form>

      <p role="status" className="help" data-testid="tokens-announcement">
        {announce}
      </p>
      {error ? <ErrorNotice error={error} testId="tokens-error" /> : null}
      {revocation.error ? <ErrorNotice error={revocation.error} testId="token-revoke-error" /> : null}
      {status === 'loading' ? (
        <div className="loading" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('app.loading')}
        </div>
      ) : items.length === 0 ? (
        <p className="muted" data-testid="tokens-empty">
          {t('tokens.empty')}
        </p>
      ) : (
        <div className="table-wrap">
          <table className="grid" data-testid="tokens-table">
            <caption className="visually-hidden">{t('tokens.title', { name: user })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('tokens.col.id')}</th>
                <th scope="col">{t('tokens.label')}</th>
                <th scope="col">{t('tokens.col.created')}</th>
                <th scope="col">{t('tokens.col.expires')}</th>
                <th scope="col">{t('tokens.col.state')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('users.col.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((k) => (
                <tr key={k.id} data-testid="token-row" data-token-id={k.id} data-state={k.state}>
                  <th scope="row" className="mono">
                    {k.id}
                  </th>
                  <td>{k.name ?? <span className="muted">–</span>}</td>
                  <td>{fmt.dateTime(k.created_at)}</td>
                  <td>{fmt.dateTime(k.expires_at)}</td>
                  <td>
                    <Tone tone={STATE_TONE[k.state]}>{t(`tokens.state.${k.state}`)}</Tone>
                  </td>
                  <td className="row-actions">
                    {k.state === 'active' ? (
                      <button
                        type="button"
                        className="btn btn-sm btn-danger-ghost"
                        disabled={revocation.pending && revocation.id === k.id}
                        aria-label={t('tokens.revokeLabel', { id: k.id })}
                        data-testid="token-revoke"
                        onClick={() =>
                          void tokensStore
                            .getState()
                            .revoke(k.id)
                            .then((ok) => ok && setAnnounce(t('tokens.revoked', { id: k.id })))
                        }
                      >
                        {t('tokens.revoke')}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
