// The services installed on a hosts cluster, one row each: the service, its version, its state, its hosts, its
// latest checks, its newest operation (shown below the table on demand) and its actions. A cluster holds a few
// services, so the table is not virtualised.
import type { ReactElement } from 'react';
import type { ServiceAction, ServiceState, ServiceView } from '../../../../preload/api';
import { useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { DataTable } from '../../components/DataTable';
import { sheetHash } from '../../stores/router';
import { ServiceActionButtons } from './ServiceActions';
import { ServiceChecks } from './ServiceChecks';
import { OperationStateBadge, useOperationLabel } from './ServiceOperation';

const STATE_TONE: Record<ServiceState, 'ok' | 'bad' | 'pending' | 'neutral'> = {
  installing: 'pending',
  running: 'ok',
  stopped: 'neutral',
  failed: 'bad',
  uninstalling: 'pending',
};
const COLUMNS = ['service', 'version', 'state', 'hosts', 'checks', 'operation'] as const;

export interface ServicesTableProps {
  clusterId: string;
  items: readonly ServiceView[];
  canWrite: boolean;
  /** The service whose operation is shown below the table. */
  shown: string | null;
  onShow: (service: string | null) => void;
  onAction: (service: string, action: ServiceAction) => void;
}

export function ServicesTable({ clusterId, items, canWrite, shown, onShow, onAction }: ServicesTableProps): ReactElement {
  const t = useT();
  return (
    <DataTable
      caption={t('services.caption')}
      captionId="services-table-caption"
      columns={[...COLUMNS.map((c) => t(`services.col.${c}`)), canWrite ? { header: t('services.col.actions'), hidden: true } : null]}
      className="services-table"
      testId="services-table"
      wrap={{ role: 'region', 'aria-labelledby': 'services-table-caption', tabIndex: 0 }}
    >
      {items.map((s) => (
        <ServiceRow
          key={s.service}
          clusterId={clusterId}
          service={s}
          canWrite={canWrite}
          shown={shown === s.service}
          onShow={onShow}
          onAction={onAction}
        />
      ))}
    </DataTable>
  );
}

function ServiceRow({
  clusterId,
  service: s,
  canWrite,
  shown,
  onShow,
  onAction,
}: { service: ServiceView; shown: boolean } & Omit<ServicesTableProps, 'items' | 'shown'>): ReactElement {
  const t = useT();
  const opLabel = useOperationLabel();
  const op = s.operation;
  return (
    <tr data-testid="service-row" data-service={s.service} data-state={s.state}>
      <th scope="row">
        <a href={sheetHash(clusterId, s.service)} aria-label={t('sheet.open', { service: s.title })} data-testid="service-sheet-link">
          <strong>{s.title}</strong>
        </a>
        <br />
        <code>{s.service}</code>
      </th>
      <td>
        <code>{s.version}</code>
      </td>
      <td>
        <span data-testid="service-state" data-state={s.state}>
          <Tone tone={STATE_TONE[s.state] ?? 'neutral'}>{t(`services.state.${s.state}`)}</Tone>
        </span>
      </td>
      <td>
        <ul className="plain-list service-hosts">
          {s.hosts.map((h) => (
            <li key={h.id}>
              {h.name} <code className="muted">{h.address}</code>
            </li>
          ))}
        </ul>
      </td>
      <td>
        <ServiceChecks service={s} />
      </td>
      <td>
        {op ? (
          <div className="service-op">
            <span>{opLabel(op.action)}</span>
            <OperationStateBadge state={op.state} />
            <button
              type="button"
              className="btn btn-sm"
              aria-expanded={shown}
              aria-controls={shown ? 'service-operation' : undefined}
              onClick={() => onShow(shown ? null : s.service)}
              data-testid="service-show-operation"
            >
              {shown ? t('services.operation.hide') : t('services.operation.show')}
            </button>
          </div>
        ) : (
          '—'
        )}
      </td>
      {canWrite ? (
        <td className="row-actions">
          <ServiceActionButtons
            service={s.service}
            disabled={op?.state === 'running' || s.state === 'installing' || s.state === 'uninstalling'}
            onPick={(action) => onAction(s.service, action)}
          />
        </td>
      ) : null}
    </tr>
  );
}
