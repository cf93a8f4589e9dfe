// Why an operation on a cluster was refused, with what to do: the profile's failing rules (and its tab), the
// failed preflight checks, or the approval it needs (a request form prefilled on the Approvals screen).
import type { ReactElement } from 'react';
import type { ApiError } from '../../api/client';
import type { CheckResult, PreflightRun } from '../../api/types';
import { approvalsStore, routerStore, useT } from '../../app/stores';
import { CheckList } from '../../components/CheckList';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Icon } from '../../components/Icon';
import { clusterHash, hashOf } from '../../stores/router';

function detailsOf(error: ApiError): Record<string, unknown> {
  return typeof error.details === 'object' && error.details !== null ? (error.details as Record<string, unknown>) : {};
}

function checksOf(value: unknown): CheckResult[] {
  return Array.isArray(value)
    ? (value.filter((c) => typeof c === 'object' && c !== null && typeof (c as CheckResult).id === 'string') as CheckResult[])
    : [];
}

export function OperationError({ error, clusterId, testId }: { error: ApiError; clusterId: string; testId: string }): ReactElement {
  const t = useT();
  const details = detailsOf(error);
  let more: ReactElement | null = null;

  if (error.code === 'profile_blocked') {
    const failing = checksOf(details.failing);
    more = (
      <div className="operation-detail" data-testid={`${testId}-failing`}>
        <CheckList checks={failing} label={t('operation.failingRules')} testId="failing-rules" showCritical={false} />
        <a
          href={clusterHash(clusterId, 'profile')}
          className="btn btn-sm"
          data-testid="open-profile-tab"
          onClick={(e) => {
            e.preventDefault();
            routerStore.getState().openCluster(clusterId, 'profile');
          }}
        >
          <Icon name="checks" />
          {t('operation.openProfile')}
        </a>
      </div>
    );
  } else if (error.code === 'preflight_failed') {
    const run = details.run as Partial<PreflightRun> | undefined;
    const failed = checksOf(run?.checks).filter((c) => c.status === 'fail');
    more = (
      <div className="operation-detail" data-testid={`${testId}-preflight`}>
        <CheckList checks={failed} label={t('operation.failedChecks')} testId="failed-checks" />
      </div>
    );
  } else if (error.code === 'approval_required') {
    const action = typeof details.action === 'string' ? details.action : '';
    const service = typeof details.service === 'string' ? details.service : '';
    more = (
      <div className="operation-detail">
        <a
          href={hashOf('approvals')}
          className="btn btn-sm btn-primary"
          data-testid="request-approval"
          onClick={(e) => {
            e.preventDefault();
            approvalsStore.getState().prefill({ cluster_id: clusterId, action, service, change: details.change });
            routerStore.getState().navigate('approvals');
          }}
        >
          <Icon name="approvals" />
          {t('operation.requestApproval')}
        </a>
      </div>
    );
  }

  return (
    <div className="operation-error" data-testid={testId} data-error-code={error.code}>
      <ErrorNotice error={error} testId={`${testId}-notice`} />
      {more}
    </div>
  );
}
