// The ManagedComponents of a cluster: desired state (what this manager signed) beside observed state (not
// reported by the agent yet, and said so), apply from a form built on the CRD's schema or from a YAML/JSON
// manifest checked before sending, delete after a confirmation naming exactly what goes, and stop / start /
// restart / rollback; a refused operation says why (profile blocked, preflight failed, approval needed).
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { clusterCommandsStore, componentsStore, useClusterPage, useComponents, useFormat, useSession, useT } from '../../app/stores';
import type { ComponentAction, ManagedComponentSpec } from '../../api/types';
import { selectComponentRows, type ComponentRow } from './store';
import { selectCanWrite } from '../session/store';
import { Tone } from '../../components/Badges';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Button } from '../../components/Button';
import { ApplyComponent } from './ApplyComponent';
import { ApprovalPicker } from '../approvals/ApprovalPicker';
import { CommandTracker } from '../commands/CommandTracker';
import { ActionConfirm, ComponentActionButtons, useFourEyesActions, useFourEyesScope } from './ComponentActions';
import { OperationError } from '../cluster/OperationError';
import { useManagedNamespace } from './namespace';
import { DataTable } from '../../components/DataTable';
import { sheetHash } from '../../stores/router';
import { Confirm } from '../../components/Confirm';
import { ListView, type EmptyList } from '../../components/ListView';
import { CodeTerm } from '../../components/Term';

/** A component of the desired state (the ones that can be edited or deleted). */
interface DesiredRow {
  name: string;
  spec: ManagedComponentSpec;
}

const EMPTY: EmptyList = { icon: 'components', title: 'components.empty.title', body: 'components.empty.body', testId: 'components-empty' };

export function ComponentsTab({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const rows = useComponents(selectComponentRows);
  const { status, error } = useComponents.fields('status', 'error');
  const generation = useComponents((s) => s.view?.generation ?? 0);
  const { apply, removal } = useComponents.fields('apply', 'removal');
  const canWrite = useSession(selectCanWrite);
  const [editing, setEditing] = useState<DesiredRow | null>(null);
  const [deleting, setDeleting] = useState<DesiredRow | null>(null);
  const [acting, setActing] = useState<{ name: string; action: ComponentAction } | null>(null);
  const action = useComponents((s) => s.action);
  const observedAt = useComponents((s) => s.view?.observed_at ?? null);
  const [formOpen, setFormOpen] = useState(false);

  useFourEyesScope(clusterId);
  useEffect(() => {
    void componentsStore.getState().load(clusterId);
    void clusterCommandsStore.getState().setScope(clusterId);
  }, [clusterId]);

  // The commands just sent, followed until their receipts arrive.
  const actionName = t(`approvals.action.${action.action ?? 'restart'}`);
  const trackers = [
    { command: apply.command, title: t('components.applySent', { name: apply.name ?? '' }), testId: 'apply-command' },
    { command: removal.command, title: t('components.deleteSent', { name: removal.name ?? '' }), testId: 'delete-command' },
    {
      command: action.command,
      title: t('components.actionSent', { action: actionName, name: action.name ?? '' }),
      testId: 'action-command',
    },
  ];

  const openForm = (row: DesiredRow | null): void => {
    setEditing(row);
    setFormOpen(true);
    componentsStore.getState().clearApply();
  };

  return (
    <div className="components-tab" data-testid="components-tab">
      <div className="section-head">
        <p className="help">
          {t('components.intro')}
          <span className="sep" aria-hidden="true">
            ·
          </span>
          <span data-testid="components-generation">{t('components.generation', { generation: fmt.number(generation) })}</span>
        </p>
        {canWrite ? (
          <Button look="btn-primary" icon="plus" onClick={() => openForm(null)} expanded={formOpen && !editing} testId="new-component">
            {t('components.new')}
          </Button>
        ) : null}
      </div>

      {error ? <ErrorNotice error={error} testId="components-error" /> : null}

      {canWrite && formOpen ? (
        <ApplyComponent
          key={editing?.name ?? '(new)'}
          initial={editing}
          existing={rows.filter((r) => r.spec).map((r) => r.name)}
          onClose={() => {
            setFormOpen(false);
            setEditing(null);
          }}
        />
      ) : null}

      {trackers.map(({ command, title, testId }) =>
        command ? <CommandTracker key={testId} commandId={command.id} initial={command} title={title} testId={testId} /> : null,
      )}
      {removal.error ? <OperationError error={removal.error} clusterId={clusterId} testId="delete-error" /> : null}
      {action.error ? <OperationError error={action.error} clusterId={clusterId} testId="action-error" /> : null}

      {deleting ? <DeleteConfirm clusterId={clusterId} row={deleting} onDone={() => setDeleting(null)} /> : null}
      {acting ? <ActionConfirm clusterId={clusterId} name={acting.name} action={acting.action} onDone={() => setActing(null)} /> : null}

      <ListView status={status} count={rows.length} empty={EMPTY}>
        <DataTable
          caption={t('components.tableLabel')}
          captionId="components-table-caption"
          columns={[
            ...(['name', 'desired', 'observed'] as const).map((c) => t(`components.col.${c}`)),
            canWrite ? { header: t('components.col.actions'), hidden: true } : null,
          ]}
          className="components-table"
          testId="components-table"
          wrap={{ role: 'region', 'aria-labelledby': 'components-table-caption', tabIndex: 0 }}
        >
          {rows.map((row) => (
            <tr key={row.name} data-testid="component-row" data-component-name={row.name} data-drift={row.drift}>
              <th scope="row">
                <a
                  href={sheetHash(clusterId, row.name)}
                  aria-label={t('sheet.open', { service: row.name })}
                  data-testid="component-sheet-link"
                >
                  <code className="component-name">{row.name}</code>
                </a>
              </th>
              <td>{row.spec ? <DesiredSpec spec={row.spec} /> : <span className="muted">{t('components.observed.notDesired')}</span>}</td>
              <td className="observed" data-testid="observed">
                <ObservedCell row={row} />
              </td>
              {canWrite ? (
                <td className="row-actions">
                  {row.spec ? (
                    <>
                      <Button
                        look="btn-sm"
                        icon="edit"
                        onClick={() => openForm({ name: row.name, spec: row.spec! })}
                        label={t('components.editName', { name: row.name })}
                        testId="edit-component"
                      >
                        {t('components.edit')}
                      </Button>
                      <Button
                        look="btn-sm btn-danger-ghost"
                        icon="trash"
                        onClick={() => {
                          componentsStore.getState().clearRemoval();
                          setDeleting({ name: row.name, spec: row.spec! });
                        }}
                        label={t('components.deleteName', { name: row.name })}
                        testId="delete-component"
                      >
                        {t('components.delete')}
                      </Button>
                      <ComponentActionButtons
                        name={row.name}
                        onPick={(a) => {
                          componentsStore.getState().clearAction();
                          setActing({ name: row.name, action: a });
                        }}
                      />
                    </>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      </ListView>
      <p className="help" data-testid="observed-at">
        {observedAt ? t('components.observed.at', { when: fmt.dateTimeLong(observedAt) }) : t('components.observed.note')}
      </p>
    </div>
  );
}

function DesiredSpec({ spec }: { spec: ManagedComponentSpec }): ReactElement {
  const t = useT();
  return (
    <dl className="spec-list">
      <CodeTerm name={t('components.field.component')} value={spec.component} />
      <CodeTerm name={t('components.field.version')} value={spec.version} />
      {spec.replicas !== undefined ? (
        <>
          <dt>{t('components.field.replicas')}</dt>
          <dd>{spec.replicas}</dd>
        </>
      ) : null}
      {spec.resources && (spec.resources.cpu || spec.resources.memory) ? (
        <>
          <dt>{t('components.field.resources')}</dt>
          <dd>{t('components.resourcesValue', { cpu: spec.resources.cpu ?? '–', memory: spec.resources.memory ?? '–' })}</dd>
        </>
      ) : null}
      {spec.artifacts && spec.artifacts.length > 0 ? (
        <>
          <dt>{t('components.field.artifacts')}</dt>
          <dd>
            <ul className="plain-list">
              {spec.artifacts.map((a) => (
                <li key={a.name}>
                  <code>{a.name}</code>{' '}
                  <code className="digest" title={a.image}>
                    {a.image}
                  </code>
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

function ObservedCell({ row }: { row: ComponentRow }): ReactElement {
  const t = useT();
  switch (row.drift) {
    case 'unknown':
      return <span className="muted">{t('components.observed.notReported')}</span>;
    case 'absent':
      return <Tone tone="bad">{t('components.observed.absent')}</Tone>;
    case 'in_sync':
    case 'differs':
    case 'unexpected': {
      const spec = (row.observed?.spec ?? {}) as Partial<ManagedComponentSpec>;
      const phase = statusPhase(row.observed?.status);
      return (
        <div className="observed-cell">
          {row.drift === 'in_sync' ? (
            <Tone tone="ok">{t('components.observed.inSync')}</Tone>
          ) : row.drift === 'differs' ? (
            <Tone tone="pending">{t('components.observed.differs', { fields: row.differences.join(', ') })}</Tone>
          ) : (
            <Tone tone="pending">{t('components.observed.unexpected')}</Tone>
          )}
          <span className="muted">
            {t('components.observed.summary', { component: String(spec.component ?? '–'), version: String(spec.version ?? '–') })}
            {spec.replicas !== undefined ? ` · ${t('components.observed.replicas', { replicas: String(spec.replicas) })}` : ''}
          </span>
          {phase ? <span className="muted">{t('components.observed.status', { status: phase })}</span> : null}
        </div>
      );
    }
  }
}

/** A readable word of a ManagedComponent status, when the operator wrote one (phase, or the Ready condition). */
function statusPhase(status: unknown): string | null {
  if (typeof status !== 'object' || status === null) return null;
  const s = status as { phase?: unknown; conditions?: unknown };
  if (typeof s.phase === 'string') return s.phase;
  if (Array.isArray(s.conditions)) {
    const ready = s.conditions.find((c) => (c as { type?: unknown })?.type === 'Ready') as { status?: unknown } | undefined;
    if (ready && typeof ready.status === 'string') return `Ready=${ready.status}`;
  }
  return null;
}

function DeleteConfirm({ clusterId, row, onDone }: { clusterId: string; row: DesiredRow; onDone: () => void }): ReactElement {
  const t = useT();
  const fourEyes = useFourEyesActions(clusterId).includes('uninstall');
  const [approvalId, setApprovalId] = useState('');
  const cluster = useClusterPage((s) => s.cluster);
  const removal = useComponents((s) => s.removal);
  const { namespace, known } = useManagedNamespace();
  const text = useMemo(
    () =>
      t('components.confirmDelete', {
        name: row.name,
        component: row.spec.component,
        version: row.spec.version,
        cluster: cluster?.name ?? '',
        namespace,
      }),
    [t, row, cluster, namespace],
  );
  return (
    <Confirm
      titleId="delete-component-title"
      title={t('components.confirmDeleteTitle', { name: row.name })}
      describedBy="delete-component-text"
      testId="delete-confirm"
      onCancel={onDone}
      confirm={{
        label: t('components.deleteConfirm', { name: row.name }),
        disabled: removal.pending,
        testId: 'delete-confirm-button',
        onClick: () =>
          void componentsStore
            .getState()
            .removeComponent(row.name, approvalId || undefined)
            .then((command) => {
              if (command) clusterCommandsStore.getState().upsert(command);
              onDone();
            }),
      }}
    >
      <p id="delete-component-text" data-testid="delete-confirm-text">
        {text}
      </p>
      {!known ? <p className="help">{t('components.namespaceAssumed', { namespace })}</p> : null}
      {fourEyes ? (
        <p>
          <ApprovalPicker action="uninstall" service={row.name} state={[approvalId, setApprovalId]} idSuffix="delete" />
        </p>
      ) : null}
    </Confirm>
  );
}
