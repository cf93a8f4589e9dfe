// Four-eyes approvals: request one (action, service, reason), and for administrators approve or reject the
// requests of others; the requester then launches the operation with it, once, within 24 hours.
import { useEffect, useMemo, type ReactElement } from 'react';
import { APPROVAL_STATES, type ApprovalState } from '../../../../preload/api';
import { approvalsStore, clustersStore, useApprovals, useClusters, useSession, useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { selectCanWrite } from '../session/store';
import { ApprovalRequestForm } from './ApprovalRequestForm';
import { ApprovalRow } from './ApprovalRow';
import { ScreenHeader } from '../../components/ScreenHeader';
import { Panel } from '../../components/Panel';
import { DataTable } from '../../components/DataTable';
import { Options } from '../../components/Options';
import { ListView, type EmptyList } from '../../components/ListView';

const EMPTY: EmptyList = { icon: 'approvals', title: 'approvals.empty.title', body: 'approvals.empty.body', testId: 'approvals-empty' };

export function ApprovalsScreen(): ReactElement {
  const t = useT();
  const { items, status, error, filter } = useApprovals.fields('items', 'status', 'error', 'filter');
  const decisionError = useApprovals((s) => s.decision.error);
  const clusters = useClusters((s) => s.items);
  const canWrite = useSession(selectCanWrite);
  const names = useMemo(() => new Map(clusters.map((c) => [c.id, c.name])), [clusters]);

  useEffect(() => {
    void approvalsStore.getState().load();
    if (clustersStore.getState().status === 'idle') void clustersStore.getState().load();
  }, []);

  return (
    <section className="screen" aria-labelledby="screen-title" data-testid="screen-approvals">
      <ScreenHeader title={t('nav.approvals')} subtitle={t('approvals.subtitle')} />

      {canWrite ? <ApprovalRequestForm /> : null}

      <Panel
        titleId="approvals-list-title"
        title={t('approvals.list.title')}
        actions={
          <>
            <div className="field field-inline">
              <label htmlFor="approvals-state">{t('approvals.filter.state')}</label>
              <select
                id="approvals-state"
                value={filter.state ?? ''}
                onChange={(e) =>
                  void approvalsStore.getState().setFilter({ ...filter, state: (e.target.value || undefined) as ApprovalState | undefined })
                }
                data-testid="approvals-filter-state"
              >
                <option value="">{t('approvals.filter.all')}</option>
                <Options values={APPROVAL_STATES} label={(s) => t(`approvals.state.${s}`)} />
              </select>
            </div>
          </>
        }
      >
        {error ? <ErrorNotice error={error} testId="approvals-error" /> : null}
        {decisionError ? <ErrorNotice error={decisionError} testId="approval-decision-error" /> : null}
        <ListView status={status} count={items.length} empty={EMPTY}>
          <DataTable
            caption={t('approvals.list.title')}
            columns={[
              ...(['operation', 'cluster', 'reason', 'requested', 'state'] as const).map((c) => t(`approvals.col.${c}`)),
              { header: t('approvals.col.actions'), hidden: true },
            ]}
            testId="approvals-table"
          >
            {items.map((a) => (
              <ApprovalRow
                key={a.id}
                approval={a}
                clusterName={a.cluster_id === null ? t('approvals.manager') : (names.get(a.cluster_id) ?? a.cluster_id)}
              />
            ))}
          </DataTable>
        </ListView>
      </Panel>
    </section>
  );
}
