// The API tokens of one account, opened from its row in Users: each token's label, expiry and state (active,
// expired, revoked), a new token with its lifetime (its secret shown once, to copy), and a revocation.
import { useState, type ReactElement } from 'react';
import type { ApiToken } from '../../../../preload/api';
import { tokensStore, useFormat, useT, useTokens } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CodeBlock';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/Field';
import { Form } from '../../components/Form';
import { Icon } from '../../components/Icon';
import { Loading } from '../../components/Loading';
import { Options } from '../../components/Options';
import { Panel } from '../../components/Panel';
import { TextField } from '../../components/TextField';

const LIFETIMES = ['7', '30', '90', '365'] as const;
type Lifetime = (typeof LIFETIMES)[number];
const STATE_TONE: Record<ApiToken['state'], 'ok' | 'bad' | 'neutral'> = { active: 'ok', expired: 'neutral', revoked: 'bad' };

export function TokensPanel({ onClose }: { onClose: () => void }): ReactElement | null {
  const t = useT();
  const fmt = useFormat();
  const { user, items, status, error, creation, created, revocation } = useTokens.fields(
    'user',
    'items',
    'status',
    'error',
    'creation',
    'created',
    'revocation',
  );
  const [label, setLabel] = useState('');
  const [days, setDays] = useState<Lifetime>('90');
  const [announce, setAnnounce] = useState('');
  if (!user) return null;

  const onCreate = async (): Promise<void> => {
    if (creation.pending) return;
    const made = await tokensStore.getState().create({ expires: `${days}d`, ...(label.trim() ? { name: label.trim() } : {}) });
    if (made) setLabel('');
  };

  return (
    <Panel
      titleId="tokens-title"
      title={t('tokens.title', { name: user })}
      className="tokens-panel"
      testId="tokens-panel"
      data={{ 'data-user-name': user }}
      actions={
        <button type="button" className="btn btn-sm" onClick={onClose} data-testid="tokens-close">
          {t('tokens.close')}
        </button>
      }
    >
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
            <Button look="btn-sm" onClick={() => tokensStore.getState().dismissCreated()} testId="token-dismiss">
              {t('tokens.createdDone')}
            </Button>
          </div>
        </div>
      ) : null}

      <Form className="form sub-form" onSubmit={onCreate} testId="token-form">
        <div className="form-grid">
          <TextField
            id="token-label"
            label={t('tokens.label')}
            note="optional"
            value={label}
            onChange={setLabel}
            placeholder="ci-nightly"
            input={{ maxLength: 64, autoComplete: 'off' }}
          />
          <Field id="token-lifetime" label={t('tokens.lifetime')}>
            <select value={days} onChange={(e) => setDays(e.target.value as Lifetime)} data-testid="token-lifetime">
              <Options values={LIFETIMES} label={(d) => t('tokens.lifetime.days', { n: Number(d) })} />
            </select>
          </Field>
        </div>
        {creation.error ? <ErrorNotice error={creation.error} testId="token-create-error" /> : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary btn-sm" disabled={creation.pending} data-testid="token-create">
            <Icon name="plus" />
            {creation.pending ? t('tokens.creating') : t('tokens.create')}
          </button>
        </div>
      </Form>

      <p role="status" className="help" data-testid="tokens-announcement">
        {announce}
      </p>
      {error ? <ErrorNotice error={error} testId="tokens-error" /> : null}
      {revocation.error ? <ErrorNotice error={revocation.error} testId="token-revoke-error" /> : null}
      {status === 'loading' ? (
        <Loading />
      ) : items.length === 0 ? (
        <p className="muted" data-testid="tokens-empty">
          {t('tokens.empty')}
        </p>
      ) : (
        <DataTable
          caption={t('tokens.title', { name: user })}
          columns={[
            t('tokens.col.id'),
            t('tokens.label'),
            t('tokens.col.created'),
            t('tokens.col.expires'),
            t('tokens.col.state'),
            { header: t('users.col.actions'), hidden: true },
          ]}
          testId="tokens-table"
        >
          {items.map((k) => (
            <tr key={k.id} data-testid="token-row" data-token-id={k.id} data-state={k.state}>
              <th scope="row" className="mono">
                {k.id}
              </th>
              <td>{k.name ?? <span className="muted">–</span>}</td>
              <td>{fmt.dateTime(k.created_at)}</td>
              <td data-testid="token-expires">{fmt.dateTime(k.expires_at)}</td>
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
        </DataTable>
      )}
    </Panel>
  );
}
