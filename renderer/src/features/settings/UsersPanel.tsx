// Local accounts, for administrators: who can sign in, with which role and whether with a second factor,
// adding an account, and resetting the second factor of one who lost it.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { MIN_PASSWORD_LENGTH, ROLE_NAMES, type Role } from '../../../../preload/api';
import { tokensStore, usersStore, useFormat, useSession, useT, useTokens, useUsers } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { Form } from '../../components/Form';
import { userFormProblem } from './userForm';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Icon } from '../../components/Icon';
import { Confirm } from '../../components/Confirm';
import { Field } from '../../components/Field';
import { TextField } from '../../components/TextField';
import { Panel } from '../../components/Panel';
import { Loading } from '../../components/Loading';
import { DataTable } from '../../components/DataTable';
import { Options } from '../../components/Options';
import { TokensPanel } from './TokensPanel';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { ApprovalRetry } from '../approvals/RetryWithApproval';

/** A name typed exactly. */
const PLAIN = { autoComplete: 'off', spellCheck: false } as const;

export function UsersPanel(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const { items, status, error, mfaReset } = useUsers.fields('items', 'status', 'error', 'mfaReset');
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
    <Panel
      titleId="users-title"
      title={t('users.title')}
      className="users-panel"
      testId="users-panel"
      actions={
        <>
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
        </>
      }
    >
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
      {mfaReset.name ? (
        <ApprovalRetry
          write={mfaReset}
          act={{ clusterId: null, action: 'reset_admin_mfa', service: mfaReset.name }}
          idSuffix="mfa-reset"
          onRetry={(approvalId) => {
            const name = mfaReset.name!;
            void usersStore
              .getState()
              .resetMfa(name, approvalId)
              .then((ok) => {
                if (ok) setAnnounce(t('users.mfaReset.done', { name }));
              });
          }}
        />
      ) : null}
      {resetting ? (
        <Confirm
          titleId="mfa-reset-title"
          title={t('users.mfaReset.confirm', { name: resetting })}
          testId="mfa-reset-confirm"
          onCancel={() => setResetting(null)}
          confirm={{
            label: t('users.mfaReset.action'),
            disabled: mfaReset.pending,
            testId: 'mfa-reset-confirm-button',
            onClick: () =>
              void usersStore
                .getState()
                .resetMfa(resetting)
                .then((ok) => {
                  if (ok) setAnnounce(t('users.mfaReset.done', { name: resetting }));
                  setResetting(null);
                }),
          }}
        />
      ) : null}
      {status === 'loading' && items.length === 0 ? (
        <Loading />
      ) : (
        <DataTable
          caption={t('users.title')}
          columns={[
            ...(['name', 'role', 'created', 'mfa'] as const).map((c) => t(`users.col.${c}`)),
            { header: t('users.col.actions'), hidden: true },
          ]}
          testId="users-table"
        >
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
        </DataTable>
      )}
      <TokensPanel onClose={() => tokensStore.getState().close()} />
    </Panel>
  );
}

function AddUserForm({ onDone }: { onDone: (name: string | null) => void }): ReactElement {
  const t = useT();
  const creation = useUsers((s) => s.creation);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('operator');
  const [secret, setSecret] = useState({ password: '', confirm: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    nameRef.current?.focus();
    return () => usersStore.getState().clearCreationError();
  }, []);

  const onSubmit = async (): Promise<void> => {
    if (creation.pending) return;
    const found = userFormProblem({ name, role, ...secret });
    if (found) return setProblem(t(found, { min: MIN_PASSWORD_LENGTH }));
    setProblem(null);
    await create();
  };
  /** Under four eyes, an admin is created with another admin's approval of exactly this name. */
  const create = async (approvalId?: string): Promise<void> => {
    const user = await usersStore
      .getState()
      .create({ name: name.trim(), role, password: secret.password, ...(approvalId ? { approval_id: approvalId } : {}) });
    if (user) onDone(user.name);
  };

  return (
    <Form className="form sub-form" onSubmit={onSubmit} onEscape={() => onDone(null)} testId="add-user-form">
      <div className="form-grid">
        <TextField id="user-name" label={t('users.col.name')} inputRef={nameRef} value={name} onChange={setName} input={PLAIN} />
        <Field id="user-role" label={t('users.col.role')} hint={t(`users.roleHelp.${role}`)}>
          <select value={role} onChange={(e) => setRole(e.target.value as Role)} data-testid="user-role">
            <Options values={ROLE_NAMES} label={(r) => t(`role.${r}`)} />
          </select>
        </Field>
        <NewPasswordFields idPrefix="user" values={secret} onChange={(field, value) => setSecret({ ...secret, [field]: value })} />
      </div>
      <div aria-live="polite">
        {problem ? (
          <p className="field-error" data-testid="user-problem">
            {problem}
          </p>
        ) : null}
      </div>
      {creation.error ? <ErrorNotice error={creation.error} testId="add-user-error" /> : null}
      {role === 'admin' ? (
        <ApprovalRetry
          write={creation}
          act={{ clusterId: null, action: 'create_admin', service: name.trim() }}
          idSuffix="create-admin"
          onRetry={(approvalId) => void create(approvalId)}
        />
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={creation.pending} data-testid="add-user-submit">
          {creation.pending ? t('users.adding') : t('users.submit')}
        </button>
        <button type="button" className="btn" onClick={() => onDone(null)}>
          {t('common.cancel')}
        </button>
      </div>
    </Form>
  );
}
