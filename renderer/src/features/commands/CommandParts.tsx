// Pieces of a command as operators read it: the operation in words, the rejection code in words with what to
// do, the receipts (when, which replica, what status), and the table of commands.
import { Fragment, type ReactElement } from 'react';
import type { CommandReceipt, CommandView } from '../../api/types';
import { useFormat, useLocale, useT } from '../../app/stores';
import { isMessageKey, translateLoose } from '../../i18n';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { commandTarget, selectVisibleCommands, type CommandsStore } from './store';
import { clusterHash } from '../../stores/router';
import { CommandStateBadge } from '../../components/Badges';
import { Icon } from '../../components/Icon';
import { DataTable } from '../../components/DataTable';
import { EmptyState } from '../../components/EmptyState';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';

export function OperationLabel({ command }: { command: Pick<CommandView, 'op' | 'args'> }): ReactElement {
  const locale = useLocale();
  const target = commandTarget(command);
  const key = `command.op.${command.op}`;
  return (
    <span className="op-label" data-op={command.op}>
      <span className="op-name">{isMessageKey(key) ? translateLoose(locale, key) : command.op}</span>
      {target ? <code className="op-target">{target}</code> : null}
    </span>
  );
}

/** A rejection or failure code: its meaning and what to do; unknown codes show as they are. */
export function CodeText({ code, withHint = true }: { code: string; withHint?: boolean }): ReactElement {
  const locale = useLocale();
  const t = useT();
  const key = `command.code.${code}`;
  const hintKey = `command.code.${code}.hint`;
  const known = isMessageKey(key);
  return (
    <span className="code-text" data-code={code} data-testid="rejection-code">
      <span className="code-text-title">{known ? translateLoose(locale, key) : t('command.code.unknown')}</span>{' '}
      <code className="code-text-code">{code}</code>
      {withHint && isMessageKey(hintKey) ? <span className="code-text-hint">{translateLoose(locale, hintKey)}</span> : null}
    </span>
  );
}

export function ReceiptList({ receipts }: { receipts: readonly CommandReceipt[] }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  if (receipts.length === 0)
    return (
      <p className="muted" data-testid="no-receipt">
        {t('command.noReceipt')}
      </p>
    );
  return (
    <ol className="plain-list receipts" aria-label={t('command.receipts')} data-testid="receipts">
      {receipts.map((r, i) => (
        <li key={`${r.received_at}-${i}`} className="receipt" data-testid="receipt" data-status={r.status}>
          <CommandStateBadge state={r.status} />
          <time dateTime={r.received_at} title={fmt.dateTimeLong(r.received_at)}>
            {fmt.dateTime(r.received_at)}
          </time>
          {r.replica ? <span className="muted">{t('command.byReplica', { replica: r.replica })}</span> : null}
          {r.code ? <CodeText code={r.code} withHint={false} /> : null}
        </li>
      ))}
    </ol>
  );
}

/** The details of one command (the expanded row of the table). */
export function CommandDetails({ command }: { command: CommandView }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  return (
    <div className="command-details" data-testid="command-details">
      <dl className="kv">
        <dt>{t('command.id')}</dt>
        <dd>
          <code className="selectable">{command.id}</code>
        </dd>
        <dt>{t('command.validUntil')}</dt>
        <dd>{fmt.dateTimeLong(command.not_after)}</dd>
        <dt>{t('command.delivered')}</dt>
        <dd>
          {command.delivered_at
            ? t('command.deliveredValue', {
                when: fmt.dateTimeLong(command.delivered_at),
                deliveries: fmt.plural('command.deliveries', command.deliveries),
              })
            : t('command.notDelivered')}
        </dd>
        <dt>{t('command.completed')}</dt>
        <dd>{command.completed_at ? fmt.dateTimeLong(command.completed_at) : t('command.notCompleted')}</dd>
        {command.code ? (
          <>
            <dt>{t('command.code')}</dt>
            <dd>
              <CodeText code={command.code} />
            </dd>
          </>
        ) : null}
        {command.result !== null && command.result !== undefined ? (
          <>
            <dt>{t('command.result')}</dt>
            <dd>
              <pre className="json-inline">{JSON.stringify(command.result, null, 2)}</pre>
            </dd>
          </>
        ) : null}
        {command.withheld?.length ? (
          <>
            <dt>{t('command.withheld')}</dt>
            <dd data-testid="command-withheld">{command.withheld.map((part) => t(`command.withheld.${part}`)).join(' ')}</dd>
          </>
        ) : null}
      </dl>
      <h4 className="section-title">{t('command.receipts')}</h4>
      <ReceiptList receipts={command.receipts ?? []} />
    </div>
  );
}

function LatestReceipt({ command }: { command: CommandView }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const receipts = command.receipts ?? [];
  const last = receipts[receipts.length - 1];
  if (!last) return <span className="muted">{t('command.noReceipt')}</span>;
  return (
    <span className="latest-receipt" data-testid="latest-receipt">
      {fmt.plural('command.receiptCount', receipts.length)}
      {last.replica ? <span className="muted"> · {last.replica}</span> : null}
      <span className="muted"> · {fmt.dateTime(last.received_at)}</span>
    </span>
  );
}

/** A list of commands as both the Commands screen and a cluster's tab show it: its error, loading, empty state. */
/** The commands of a commands store (the screen's or a cluster tab's): its error, then loading, empty or the table. */
export function CommandsBody({
  store,
  emptyBody,
  clusterName,
}: {
  store: CommandsStore;
  emptyBody: string;
  clusterName?: (id: string) => string | null;
}): ReactElement {
  const t = useT();
  const rows = useStore(store, selectVisibleCommands);
  const { total, status, error, expandedId } = useStore(
    store,
    useShallow((s) => ({ total: s.items.length, status: s.status, error: s.error, expandedId: s.expandedId })),
  );
  return (
    <>
      {error ? <ErrorNotice error={error} testId="commands-error" /> : null}
      {status === 'loading' && total === 0 ? (
        <Loading />
      ) : total === 0 ? (
        <EmptyState icon="commands" title={t('commands.empty.title')} testId="commands-empty">
          <p>{emptyBody}</p>
        </EmptyState>
      ) : (
        <CommandsTable
          commands={rows}
          expandedId={expandedId}
          onToggle={(id) => store.getState().toggleExpanded(id)}
          {...(clusterName ? { clusterName } : {})}
        />
      )}
    </>
  );
}

export interface CommandsTableProps {
  commands: readonly CommandView[];
  expandedId: string | null;
  onToggle: (id: string) => void;
  /** Shows the cluster column when given (the all-clusters screen). */
  clusterName?: (id: string) => string | null;
  testId?: string;
}

export function CommandsTable({
  commands,
  expandedId,
  onToggle,
  clusterName,
  testId = 'commands-table',
}: CommandsTableProps): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const cols = clusterName ? 7 : 6;
  return (
    <DataTable
      columns={[
        t('commands.col.operation'),
        clusterName ? t('commands.col.cluster') : null,
        ...(['requestedBy', 'created', 'state', 'receipts'] as const).map((c) => t(`commands.col.${c}`)),
        { header: t('commands.col.details'), hidden: true },
      ]}
      className="commands-table"
      testId={testId}
      wrap={{ role: 'region', 'aria-label': t('commands.tableLabel'), tabIndex: 0 }}
    >
      {commands.map((c) => {
        const open = expandedId === c.id;
        const name = clusterName?.(c.cluster_id) ?? null;
        return (
          <Fragment key={c.id}>
            <tr
              className={open ? 'is-open' : undefined}
              data-testid="command-row"
              data-command-id={c.id}
              data-state={c.state}
              data-op={c.op}
            >
              <td>
                <OperationLabel command={c} />
              </td>
              {clusterName ? (
                <td>
                  <a href={clusterHash(c.cluster_id, 'commands')}>
                    <code>{name ?? c.cluster_id}</code>
                  </a>
                </td>
              ) : null}
              <td>{c.requested_by}</td>
              <td>
                <time dateTime={c.created_at} title={fmt.dateTimeLong(c.created_at)}>
                  {fmt.dateTime(c.created_at)}
                </time>
              </td>
              <td>
                <CommandStateBadge state={c.state} />
                {c.code ? (
                  <div className="state-code">
                    <CodeText code={c.code} withHint={false} />
                  </div>
                ) : null}
              </td>
              <td>
                <LatestReceipt command={c} />
              </td>
              <td className="row-actions">
                <button
                  type="button"
                  className="btn btn-sm btn-ghost"
                  aria-expanded={open}
                  aria-controls={`command-details-${c.id}`}
                  onClick={() => onToggle(c.id)}
                  data-testid="command-toggle"
                >
                  <Icon name={open ? 'sortAsc' : 'sortDesc'} />
                  {open ? t('commands.hideDetails') : t('commands.showDetails')}
                </button>
              </td>
            </tr>
            {open ? (
              <tr className="details-row" id={`command-details-${c.id}`}>
                <td colSpan={cols}>
                  <CommandDetails command={c} />
                </td>
              </tr>
            ) : null}
          </Fragment>
        );
      })}
    </DataTable>
  );
}
