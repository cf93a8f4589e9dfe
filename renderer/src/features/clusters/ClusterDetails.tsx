// The selected cluster: its record, description editing and deletion (with a confirmation step).
import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { Cluster } from '../../../../preload/api';
import { clustersStore, useClusters, useFormat, useSession, useT } from '../../app/stores';
import { selectCanWrite } from '../session/store';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Icon } from '../../components/Icon';
import { StateBadge } from '../../components/StateBadge';
import { clusterHash } from '../../stores/router';
import { Confirm } from '../../components/Confirm';
import { CodeTerm } from '../../components/Term';
import { ApprovalRetry } from '../approvals/RetryWithApproval';

export function ClusterDetails({ cluster, onAnnounce }: { cluster: Cluster; onAnnounce: (message: string) => void }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const canWrite = useSession(selectCanWrite);
  const mutation = useClusters((s) => s.mutation);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(cluster.description);
  const [confirming, setConfirming] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    setEditing(false);
    setConfirming(false);
    setDraft(cluster.description);
    headingRef.current?.focus();
  }, [cluster.id]);

  const close = (): void => clustersStore.getState().select(null);

  const save = async (): Promise<void> => {
    const updated = await clustersStore.getState().update(cluster.id, { description: draft.trim() });
    if (updated) {
      setEditing(false);
      onAnnounce(t('clusters.details.saved'));
    }
  };

  /** Under four eyes, with another admin's approval of deleting this very cluster. */
  const remove = async (approvalId?: string): Promise<void> => {
    const name = cluster.name;
    if (await clustersStore.getState().remove(cluster.id, approvalId)) onAnnounce(t('clusters.details.deleted', { name }));
  };

  return (
    <aside
      className="details"
      aria-labelledby="cluster-details-title"
      data-testid="cluster-details"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !editing && !confirming) close();
      }}
    >
      <header className="details-header">
        <h2 id="cluster-details-title" className="details-title" tabIndex={-1} ref={headingRef}>
          {t('clusters.details.title', { name: cluster.name })}
        </h2>
        <button type="button" className="btn btn-icon" onClick={close} aria-label={t('common.close')} title={t('common.close')}>
          <Icon name="close" />
        </button>
      </header>
      <p>
        <a className="btn btn-sm btn-primary" href={clusterHash(cluster.id)} data-testid="open-cluster-page">
          {t('clusters.details.open')}
        </a>
      </p>
      <dl className="details-list">
        <dt>{t('clusters.details.state')}</dt>
        <dd>
          <StateBadge state={cluster.state} />
        </dd>
        <dt>{t('clusters.details.tenant')}</dt>
        <dd>{cluster.tenant}</dd>
        <CodeTerm name={t('clusters.details.id')} value={cluster.id} className="selectable" />
        <dt>{t('clusters.details.created')}</dt>
        <dd>
          <time dateTime={cluster.created_at}>{fmt.dateTimeLong(cluster.created_at)}</time>
        </dd>
        <dt>{t('clusters.details.updated')}</dt>
        <dd>
          <time dateTime={cluster.updated_at}>{fmt.dateTimeLong(cluster.updated_at)}</time>
        </dd>
        <dt>{t('clusters.details.description')}</dt>
        <dd>
          {editing ? (
            <div className="field">
              <label htmlFor="cluster-edit-description" className="visually-hidden">
                {t('clusters.details.description')}
              </label>
              <textarea
                id="cluster-edit-description"
                rows={3}
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Escape') {
                    e.stopPropagation();
                    setEditing(false);
                  }
                }}
                autoFocus
              />
              <div className="form-actions">
                <button type="button" className="btn btn-primary btn-sm" onClick={() => void save()} disabled={mutation.pending}>
                  {mutation.pending ? t('common.saving') : t('common.save')}
                </button>
                <button type="button" className="btn btn-sm" onClick={() => setEditing(false)}>
                  {t('common.cancel')}
                </button>
              </div>
            </div>
          ) : cluster.description ? (
            <p className="details-text">{cluster.description}</p>
          ) : (
            <p className="muted">{t('clusters.details.noDescription')}</p>
          )}
        </dd>
      </dl>
      {mutation.error ? <ErrorNotice error={mutation.error} testId="cluster-mutation-error" /> : null}
      {mutation.error?.code === 'cluster_not_empty' ? <NotEmptyList details={mutation.error.details} /> : null}
      <ApprovalRetry
        write={mutation}
        act={{ clusterId: cluster.id, action: 'delete_cluster', service: cluster.name }}
        idSuffix="delete-cluster"
        onRetry={(approvalId) => void remove(approvalId)}
      />
      {canWrite && !editing ? (
        <div className="details-actions">
          {confirming ? (
            <Confirm
              titleId="confirm-delete-text"
              title={t('clusters.details.confirmDelete', { name: cluster.name })}
              alert={false}
              role="group"
              onCancel={() => setConfirming(false)}
              confirm={{ label: t('clusters.details.confirm'), onClick: () => void remove(), disabled: mutation.pending }}
            />
          ) : (
            <>
              <button
                type="button"
                className="btn btn-sm"
                onClick={() => {
                  setDraft(cluster.description);
                  setEditing(true);
                }}
              >
                <Icon name="edit" />
                {t('clusters.details.edit')}
              </button>
              <button type="button" className="btn btn-sm btn-danger-ghost" onClick={() => setConfirming(true)}>
                <Icon name="trash" />
                {t('clusters.details.delete')}
              </button>
            </>
          )}
        </div>
      ) : null}
    </aside>
  );
}

/** What a cluster_not_empty refusal names: the services and components still installed, to uninstall first. */
export function installedOf(details: unknown): string[] {
  const d = typeof details === 'object' && details !== null ? (details as Record<string, unknown>) : {};
  const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return [...names(d.services), ...names(d.components)];
}

function NotEmptyList({ details }: { details: unknown }): ReactElement | null {
  const t = useT();
  const installed = installedOf(details);
  if (installed.length === 0) return null;
  return (
    <p className="field-error" data-testid="cluster-not-empty">
      {t('clusters.details.notEmpty', { list: installed.join(', ') })}
    </p>
  );
}
