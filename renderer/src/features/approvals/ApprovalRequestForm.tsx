// Asking a second person for an operation: cluster, action, service, the exact change and reason (prefilled when
// an operation was refused with approval_required). The approval is bound to that change: the operation must send
// exactly it.
import { useEffect, useState, type ReactElement } from 'react';
import { APPROVAL_ACTIONS, type ApprovalAction } from '../../api/types';
import { approvalsStore, useApprovals, useClusters, useT } from '../../app/stores';
import { Field } from '../../components/Field';
import { ErrorNotice, InfoNotice } from '../../components/ErrorNotice';
import { Form } from '../../components/Form';
import { TextField } from '../../components/TextField';
import { ItemOptions, Options } from '../../components/Options';
import { changeText, needsCluster, parseChangeText } from './approval-change';

export function ApprovalRequestForm(): ReactElement {
  const t = useT();
  const { draft, creation } = useApprovals.fields('draft', 'creation');
  const clusters = useClusters((s) => s.items);
  const [clusterId, setClusterId] = useState('');
  const [action, setAction] = useState<ApprovalAction>('restart');
  const [service, setService] = useState('');
  const [reason, setReason] = useState('');
  const [change, setChange] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  useEffect(() => {
    if (!draft) return;
    setClusterId(draft.cluster_id);
    if ((APPROVAL_ACTIONS as readonly string[]).includes(draft.action)) setAction(draft.action as ApprovalAction);
    setService(draft.service);
    setChange(changeText(draft.change));
    setSent(null);
  }, [draft]);

  const onSubmit = async (): Promise<void> => {
    if (creation.pending) return;
    const onCluster = needsCluster(action);
    if ((onCluster && !clusterId) || !service.trim() || !reason.trim()) return setProblem(t('approvals.form.missing'));
    const parsed = parseChangeText(change);
    if (!parsed.ok) return setProblem(t('approvals.form.changeInvalid'));
    setProblem(null);
    const approval = await approvalsStore.getState().request({
      ...(onCluster ? { cluster_id: clusterId } : {}),
      action,
      service: service.trim(),
      reason: reason.trim(),
      change: parsed.change,
    });
    if (approval) {
      setReason('');
      setSent(t('approvals.form.sent', { action: t(`approvals.action.${action}`), service: approval.service }));
    }
  };

  return (
    <Form className="panel form" onSubmit={onSubmit} labelledBy="approval-request-title" testId="approval-request-form">
      <h2 id="approval-request-title" className="panel-title">
        {t('approvals.form.title')}
      </h2>
      <p className="help">{t('approvals.form.help')}</p>
      <div className="form-grid">
        <Field id="approval-cluster" label={t('approvals.col.cluster')}>
          <select
            value={needsCluster(action) ? clusterId : ''}
            disabled={!needsCluster(action)}
            onChange={(e) => setClusterId(e.target.value)}
            data-testid="approval-cluster"
          >
            <option value="">{t('approvals.form.pickCluster')}</option>
            <ItemOptions items={clusters} value={(c) => c.id} label={(c) => c.name} />
            {clusterId && !clusters.some((c) => c.id === clusterId) ? <option value={clusterId}>{clusterId}</option> : null}
          </select>
        </Field>
        <Field id="approval-action" label={t('approvals.form.action')}>
          <select value={action} onChange={(e) => setAction(e.target.value as ApprovalAction)} data-testid="approval-action">
            <Options values={APPROVAL_ACTIONS} label={(a) => t(`approvals.action.${a}`)} />
          </select>
        </Field>
        <TextField id="approval-service" label={t('approvals.form.service')} code value={service} onChange={setService} />
        <Field id="approval-change" label={t('approvals.form.change')}>
          <textarea
            value={change}
            onChange={(e) => setChange(e.target.value)}
            rows={4}
            spellCheck={false}
            className="code"
            aria-describedby="approval-change-help"
            data-testid="approval-change"
          />
        </Field>
        <p id="approval-change-help" className="help">
          {t('approvals.form.changeHelp')}
        </p>
        <TextField
          id="approval-reason"
          label={t('approvals.col.reason')}
          value={reason}
          onChange={setReason}
          input={{ autoComplete: 'off' }}
        />
      </div>
      <div aria-live="polite">{problem ? <p className="field-error">{problem}</p> : null}</div>
      {sent ? <InfoNotice testId="approval-sent">{sent}</InfoNotice> : null}
      {creation.error ? <ErrorNotice error={creation.error} testId="approval-request-error" /> : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={creation.pending} data-testid="approval-submit">
          {creation.pending ? t('approvals.form.sending') : t('approvals.form.submit')}
        </button>
      </div>
    </Form>
  );
}
