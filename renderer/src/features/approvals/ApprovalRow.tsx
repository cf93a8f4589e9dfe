// One approval: the operation, the exact change (a configuration as a diff against the one in force) and its
// digest, who asked and why, its state and expiry; approve / reject with an optional note for an administrator
// who is not the requester.
import { useState, type ReactElement } from 'react';
import type { Approval, ApprovalState } from '../../api/types';
import { approvalsStore, useApprovals, useFormat, useSession, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { actionKey } from './ApprovalPicker';
import { changeText, shortDigest } from './approval-change';

const STATE_TONE: Record<ApprovalState, 'pending' | 'ok' | 'bad' | 'neutral'> = {
  pending: 'pending',
  approved: 'ok',
  rejected: 'bad',
  used: 'neutral',
};

const DECISIONS = ['approve', 'reject'] as const;
const DECISION_CLASS: Record<(typeof DECISIONS)[number], string> = {
  approve: 'btn btn-sm btn-primary',
  reject: 'btn btn-sm btn-danger-ghost',
};

export function ApprovalRow({ approval: a, clusterName }: { approval: Approval; clusterName: string }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const user = useSession((s) => s.user);
  const deciding = useApprovals((s) => s.decision.pending && s.decision.id === a.id);
  const [note, setNote] = useState('');
  // By id, as the manager judges it: a name can be given again to a new account.
  const own = user !== null && a.requested_by === user.id;
  const canDecide = user?.role === 'admin' && !own && a.state === 'pending';
  const decide = (d: 'approve' | 'reject'): void => void approvalsStore.getState().decide(a.id, d, note.trim() || undefined);

  return (
    <tr data-testid="approval-row" data-approval-id={a.id} data-state={a.state} data-usable={a.usable ? 'true' : 'false'}>
      <th scope="row">
        {t(`approvals.action.${actionKey(a.action)}`)} <code>{a.service}</code>
      </th>
      <td>{clusterName}</td>
      <td className="wrap">
        {a.reason}
        <ApprovalChange approval={a} />
      </td>
      <td>
        {t('approvals.requestedBy', { by: a.requested_by_name, when: fmt.dateTime(a.requested_at) })}
        {own ? <span className="muted"> · {t('approvals.yours')}</span> : null}
      </td>
      <td>
        <span data-testid="approval-state">
          <Tone tone={STATE_TONE[a.state] ?? 'neutral'}>{t(`approvals.state.${a.state}`)}</Tone>
        </span>
        {a.decided_by_name && a.decided_at ? (
          <p className="muted">{t('approvals.decidedBy', { by: a.decided_by_name, when: fmt.dateTime(a.decided_at) })}</p>
        ) : null}
        {a.decision_note ? <p className="muted">{t('approvals.note', { note: a.decision_note })}</p> : null}
        {a.state === 'approved' && a.expires_at ? (
          <p className="muted">{t('approvals.expires', { when: fmt.dateTime(a.expires_at) })}</p>
        ) : null}
        {a.usable ? (
          <p className="muted" data-testid="approval-usable">
            {t('approvals.usable')}
          </p>
        ) : null}
        {a.used_at ? (
          <p className="muted">{t('approvals.used', { when: fmt.dateTime(a.used_at), command: a.used_by_command ?? '–' })}</p>
        ) : null}
      </td>
      <td className="row-actions">
        {canDecide ? (
          <>
            <label className="visually-hidden" htmlFor={`note-${a.id}`}>
              {t('approvals.noteLabel')}
            </label>
            <input
              id={`note-${a.id}`}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              placeholder={t('approvals.noteLabel')}
              data-testid="approval-note"
            />
            {DECISIONS.map((d) => (
              <button key={d} type="button" className={DECISION_CLASS[d]} disabled={deciding} onClick={() => decide(d)} data-testid={d}>
                {t(`approvals.${d}`)}
              </button>
            ))}
          </>
        ) : a.state === 'pending' ? (
          <span className="muted">{own ? t('approvals.waitingOther') : t('approvals.waitingAdmin')}</span>
        ) : null}
      </td>
    </tr>
  );
}

/** What the approver decides on: the change itself (a diff for a configuration) and the digest it is bound to. */
function ApprovalChange({ approval: a }: { approval: Approval }): ReactElement | null {
  const t = useT();
  const absent = t('approvals.diff.absent');
  return (
    <div className="approval-change">
      {a.diff && a.diff.length > 0 ? (
        <table className="diff" data-testid="approval-diff">
          <caption className="visually-hidden">{t('approvals.diff.title')}</caption>
          <tbody>
            {a.diff.map((d) => (
              <tr key={d.path}>
                <th scope="row">
                  <code>{d.path}</code>
                </th>
                <td className="diff-before">
                  <code>{d.before ?? absent}</code>
                </td>
                <td className="diff-after">
                  <code>{d.after ?? absent}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : a.change !== null && a.change !== undefined ? (
        <pre className="code" data-testid="approval-change-json">
          {changeText(a.change)}
        </pre>
      ) : null}
      {a.digest ? (
        <p className="muted" data-testid="approval-digest" title={a.digest}>
          {t('approvals.digest', { digest: shortDigest(a.digest) })}
        </p>
      ) : null}
    </div>
  );
}
