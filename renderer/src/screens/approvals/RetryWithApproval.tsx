// Shown under a refusal that asks for an approval (approval_required, or one that was not usable: approval_mismatch,
// approval_used…): the requester picks one of their own approvals of that exact act and launches it again with it.
// The approvals are read again when it appears: the one just approved by another admin must be offered.
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import type { ApiError } from '../../api/client';
import { approvalsStore, useApprovals, useT } from '../../app/stores';
import { usableApprovals } from '../../stores/approvals';
import { ApprovalSelect } from '../cluster/ApprovalPicker';

/**
 * The target an approval must name, as the refusal's details give it (a backup's is the list of the services
 * the manager chose), else the one the form knows.
 */
export function approvalTargetOf(error: Pick<ApiError, 'details'> | null | undefined, known: string): string {
  const d = error?.details;
  const service = typeof d === 'object' && d !== null ? (d as { service?: unknown }).service : undefined;
  return typeof service === 'string' && service ? service : known;
}

/** An answer that says the act needs (another) approval, so an approval picker is offered. */
export const asksForApproval = (error: Pick<ApiError, 'code'> | null | undefined): boolean =>
  error !== null && error !== undefined && error.code.startsWith('approval_');

export function RetryWithApproval({
  clusterId,
  action,
  service,
  pending,
  onRetry,
  idSuffix,
}: {
  /** null: an act on the manager itself (a new admin, an admin's factor reset, a release key). */
  clusterId: string | null;
  action: string;
  service: string;
  pending: boolean;
  onRetry: (approvalId: string) => void;
  idSuffix: string;
}): ReactElement {
  const t = useT();
  const items = useApprovals((s) => s.items);
  const [approvalId, setApprovalId] = useState('');
  useEffect(() => {
    void approvalsStore.getState().load();
  }, []);
  const usable = useMemo(() => usableApprovals(items, clusterId, action, service), [items, clusterId, action, service]);
  return (
    <div className="form-inline operation-detail" data-testid={`retry-with-approval-${idSuffix}`}>
      <ApprovalSelect action={action} usable={usable} state={[approvalId, setApprovalId]} idSuffix={idSuffix} />
      <button
        type="button"
        className="btn btn-sm"
        disabled={pending || !approvalId}
        onClick={() => onRetry(approvalId)}
        data-testid="retry-with-approval"
      >
        {t('approvals.retry')}
      </button>
    </div>
  );
}
