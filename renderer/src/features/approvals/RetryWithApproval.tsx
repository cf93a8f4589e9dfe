// Shown under a refusal that asks for an approval (approval_required, or one that was not usable: approval_mismatch,
// approval_used…): the requester picks one of their own approvals of that exact act and launches it again with it.
// The approvals are read again when it appears: the one just approved by another admin must be offered.
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import type { ApiError } from '../../api/client';
import { approvalsStore, routerStore, useApprovals, useT } from '../../app/stores';
import { Icon } from '../../components/Icon';
import { usableApprovals, type ApprovalDraft } from './store';
import { hashOf } from '../../stores/router';
import { ApprovalSelect } from './ApprovalPicker';

/**
 * The target an approval must name, as the refusal's details give it (a backup's is the list of the services
 * the manager chose), else the one the form knows.
 */
export function approvalTargetOf(error: Pick<ApiError, 'details'> | null | undefined, known: string): string {
  const d = error?.details;
  const service = typeof d === 'object' && d !== null ? (d as { service?: unknown }).service : undefined;
  return typeof service === 'string' && service ? service : known;
}

/** The request form's draft for a refused act: the approval is bound to the very change the refusal names. */
export function draftOf(refusal: Pick<ApiError, 'details'>, clusterId: string | null, action: string, service: string): ApprovalDraft {
  const d = typeof refusal.details === 'object' && refusal.details !== null ? (refusal.details as { change?: unknown }) : {};
  return { cluster_id: clusterId ?? '', action, service: approvalTargetOf(refusal, service), change: d.change ?? null };
}

/** An answer that says the act needs (another) approval, so an approval picker is offered. */
export const asksForApproval = (error: Pick<ApiError, 'code'> | null | undefined): boolean =>
  error !== null && error !== undefined && error.code.startsWith('approval_');

export function RetryWithApproval({
  clusterId,
  action,
  service,
  refusal,
  pending,
  onRetry,
  idSuffix,
}: {
  /** The refusal shown above: approval_required also offers to request the approval, prefilled. */
  refusal?: ApiError | null;
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
      {refusal?.code === 'approval_required' ? (
        <a
          href={hashOf('approvals')}
          className="btn btn-sm"
          data-testid="request-approval"
          onClick={(e) => {
            e.preventDefault();
            approvalsStore.getState().prefill(draftOf(refusal, clusterId, action, service));
            routerStore.getState().navigate('approvals');
          }}
        >
          <Icon name="approvals" />
          {t('operation.requestApproval')}
        </a>
      ) : null}
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

/** The act an approval names: its cluster (null: the manager itself), its action and its target. */
export interface ApprovableAct {
  clusterId: string | null;
  action: string;
  service: string;
}

/**
 * Under a write's refusal: the approval picker when the refusal asks for an approval, nothing otherwise (the
 * refusal itself is shown by the caller).
 */
export function ApprovalRetry({
  write,
  act,
  idSuffix,
  onRetry,
}: {
  write: { error: ApiError | null; pending: boolean };
  act: ApprovableAct;
  idSuffix: string;
  onRetry: (approvalId: string) => void;
}): ReactElement | null {
  if (!asksForApproval(write.error)) return null;
  return <RetryWithApproval refusal={write.error} pending={write.pending} {...act} idSuffix={idSuffix} onRetry={onRetry} />;
}
