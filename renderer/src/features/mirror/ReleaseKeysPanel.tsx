// The release keys whose bundles this manager imports: their ids and labels, adding one from the public key
// PEM exported on the connected side, and removing one (admins).
import { useState, type ReactElement } from 'react';
import { mirrorStore, useFormat, useMirror, useSession, useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/Field';
import { Form } from '../../components/Form';
import { Panel } from '../../components/Panel';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { ApprovalRetry } from '../approvals/RetryWithApproval';

/** The target an approval of trusting a release key names (the manager's RELEASE_KEY_TARGET). */
const RELEASE_KEY_TARGET = 'release-key';

export function ReleaseKeysPanel(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const { keys, keysError: error, keyChange: change } = useMirror.fields('keys', 'keysError', 'keyChange');
  const [pem, setPem] = useState('');
  const [label, setLabel] = useState('');

  /** Under four eyes, with another admin's approval of exactly this key. */
  const trust = async (approvalId?: string): Promise<void> => {
    if (await mirrorStore.getState().trustKey(pem, label.trim(), approvalId)) {
      setPem('');
      setLabel('');
    }
  };

  return (
    <Panel titleId="release-keys-title" title={t('mirrorScreen.keys.title')} testId="release-keys">
      <p className="help">{t('mirrorScreen.keys.help')}</p>
      {error ? <ErrorNotice error={error} testId="release-keys-error" /> : null}
      {keys.length === 0 ? (
        <p className="muted" data-testid="release-keys-none">
          {t('mirrorScreen.keys.none')}
        </p>
      ) : (
        <ul className="plain-list" data-testid="release-key-list">
          {keys.map((k) => (
            <li key={k.key_id} data-testid="release-key" data-key-id={k.key_id}>
              <code>{k.key_id}</code> {k.label} · {t('mirrorScreen.keys.added', { at: fmt.dateTime(k.added_at), by: k.added_by })}
              {isAdmin ? (
                <Button
                  look="btn-sm btn-ghost"
                  icon="trash"
                  onClick={() => void mirrorStore.getState().untrustKey(k.key_id)}
                  disabled={change.pending}
                  testId="release-key-remove"
                >
                  {t('mirrorScreen.keys.remove')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {isAdmin ? (
        <Form onSubmit={() => trust()} testId="release-key-form">
          <Field id="release-key-pem" label={t('mirrorScreen.keys.pem')}>
            <textarea
              className="mono code-input"
              rows={4}
              value={pem}
              onChange={(e) => setPem(e.target.value)}
              placeholder="-----BEGIN PUBLIC KEY-----"
              spellCheck={false}
              data-testid="release-key-pem"
            />
          </Field>
          <Field id="release-key-label" label={t('mirrorScreen.keys.label')} note="optional">
            <input value={label} onChange={(e) => setLabel(e.target.value)} autoComplete="off" data-testid="release-key-label" />
          </Field>
          {change.error ? <ErrorNotice error={change.error} testId="release-key-save-error" /> : null}
          <ApprovalRetry
            write={change}
            act={{ clusterId: null, action: 'trust_release_key', service: RELEASE_KEY_TARGET }}
            idSuffix="release-key"
            onRetry={(approvalId) => void trust(approvalId)}
          />
          <div className="form-actions">
            <button type="submit" className="btn" disabled={!pem.trim() || change.pending} data-testid="release-key-add">
              <Icon name="key" />
              {t('mirrorScreen.keys.add')}
            </button>
          </div>
        </Form>
      ) : null}
    </Panel>
  );
}
