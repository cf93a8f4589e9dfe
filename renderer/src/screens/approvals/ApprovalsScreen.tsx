// Four-eyes approvals: request one (action, service, reason), and for administrators approve or reject the
// requests of others; the requester then launches the operation with it, once, within 24 hours.
import { useEffect, useMemo, type ReactElement } from 'react';
import type { ApprovalState } from '../../api/types';
import { approvalsStore, clustersStore, useApprovals, useClusters, useSession, useT } from '../../app/stores';
import { EmptyState } from '../../components/EmptyState';
import { ErrorNotice } from '../../components/ErrorNotice';
import { selectCanWrite } from '../../stores/session';
import { ApprovalRequestForm } from './ApprovalRequestForm';
import { ApprovalRow } from './ApprovalRow';
import { ScreenHeader } from '../../components/ScreenHeader';

const STATES: readonly ApprovalState[] = ['pending', 'approved', 'rejected', 'used'];

export function ApprovalsScreen(): ReactElement {
  const t = useT();
  const items = useApprovals((s) => s.items);
  const status = useApprovals((s) => s.status);
  const error = useApprovals((s) => s.error);
  const filter = useApprovals((s) => s.filter);
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

      <section className="panel" aria-labelledby="approvals-list-title">
        <div className="panel-head">
          <h2 id="approvals-list-title" className="panel-title">
            {t('approvals.list.title')}
          </h2>
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
              {STATES.map((s) => (
                <option key={s} value={s}>
                  {t(`approvals.state.${s}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {error ? <ErrorNotice error={error} testId="approvals-error" /> : null}
        {decisionError ? <ErrorNotice error={decisionError} testId="approval-decision-error" /> : null}
        {status === 'loading' && items.length === 0 ? (
          <div className="loading" role="status">
            <span className="spinner" aria-hidden="true" />
            {t('app.loading')}
          </div>
        ) : items.length === 0 && status === 'ready' ? (
          <EmptyState icon="approvals" title={t('approvals.empty.title')} testId="approvals-empty">
            <p>{t('approvals.empty.body')}</p>
          </EmptyState>
        ) : items.length > 0 ? (
          <div className="table-wrap">
            <table className="grid" data-testid="approvals-table">
              <caption className="visually-hidden">{t('approvals.list.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('approvals.col.operation')}</th>
                  <th scope="col">{t('approvals.col.cluster')}</th>
                  <th scope="col">{t('approvals.col.reason')}</th>
                  <th scope="col">{t('approvals.col.requested')}</th>
                  <th scope="col">{t('approvals.col.state')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('approvals.col.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((a) => (
                  <ApprovalRow key={a.id} approval={a} clusterName={names.get(a.cluster_id) ?? a.cluster_id} />
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </section>
  );
}
