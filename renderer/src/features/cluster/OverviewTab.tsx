// The cluster's agent (connected, offline since, revoked; version, leader replica, last contact) and its
// inventory as last read: nodes with capacity and allocatable, namespaces, CRDs, storage and ingress classes
// with their defaults, CoreDNS.
import type { ReactElement } from 'react';
import { clusterPageStore, useClusterPage, useFormat, useNow, useSession, useT } from '../../app/stores';
import type { Inventory, InventorySnapshot } from '../../api/types';
import { agentPresence, type AgentPresence } from './clusterPage';
import type { CorednsReading } from './coredns';
import { clusterHash } from '../../stores/router';
import { selectCanWrite } from '../session/store';
import { CommandStateBadge, Tone } from '../../components/Badges';
import { EmptyState } from '../../components/EmptyState';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Icon } from '../../components/Icon';
import { readableMemory } from '../../lib/quantity';
import { Panel } from '../../components/Panel';
import { Loading } from '../../components/Loading';
import { DataTable } from '../../components/DataTable';

const PRESENCE_TONE: Record<AgentPresence, 'ok' | 'bad' | 'pending' | 'neutral'> = {
  connected: 'ok',
  offline: 'neutral',
  revoked: 'bad',
  none: 'pending',
};

export function OverviewTab({ clusterId }: { clusterId: string }): ReactElement {
  return (
    <div className="overview-grid">
      <AgentPanel clusterId={clusterId} />
      <InventoryPanel clusterId={clusterId} />
      <NodesPanel />
    </div>
  );
}

function AgentPanel({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const now = useNow();
  const { cluster, inventoryAction: action } = useClusterPage.fields('cluster', 'inventoryAction');
  const canWrite = useSession(selectCanWrite);
  const agent = cluster?.agent;
  const presence = cluster ? agentPresence(cluster, now) : 'none';
  const na = t('cluster.agent.unknown');

  return (
    <Panel
      titleId="agent-title"
      icon="agent"
      title={t('cluster.agent.title')}
      className="agent-panel"
      testId="agent-panel"
      data={{ 'data-presence': presence }}
      actions={
        <>
          <Tone tone={PRESENCE_TONE[presence]} testId="agent-presence">
            {t(`cluster.agent.presence.${presence}`)}
          </Tone>
        </>
      }
    >
      <p className="agent-summary" data-testid="agent-summary">
        {presence === 'connected' && agent?.last_seen
          ? t('cluster.agent.connectedSince', { when: fmt.relative(agent.last_seen, now) })
          : presence === 'offline' && agent?.last_seen
            ? t('cluster.agent.offlineSince', {
                when: fmt.dateTimeLong(agent.offline_since ?? agent.last_seen),
                ago: fmt.relative(agent.offline_since ?? agent.last_seen, now),
              })
            : presence === 'revoked'
              ? t('cluster.agent.revokedNote')
              : t('cluster.agent.noneNote')}
      </p>
      <dl className="kv">
        <dt>{t('cluster.agent.version')}</dt>
        <dd data-testid="agent-version">{agent?.agent_version ? <code>{agent.agent_version}</code> : na}</dd>
        <dt>{t('cluster.agent.leader')}</dt>
        <dd data-testid="agent-leader">{agent?.leader_replica ? <code>{agent.leader_replica}</code> : na}</dd>
        <dt>{t('cluster.agent.lastSeen')}</dt>
        <dd data-testid="agent-last-seen">
          {agent?.last_seen ? (
            <time dateTime={agent.last_seen} title={fmt.dateTimeLong(agent.last_seen)}>
              {fmt.dateTime(agent.last_seen)} ({fmt.relative(agent.last_seen, now)})
            </time>
          ) : (
            t('cluster.agent.never')
          )}
        </dd>
        <dt>{t('cluster.agent.certificate')}</dt>
        <dd>{agent?.certificate_serial ? <code className="selectable">{agent.certificate_serial}</code> : na}</dd>
      </dl>
      {canWrite ? (
        <div className="form-actions">
          {presence === 'none' || presence === 'revoked' ? (
            <a className="btn btn-sm btn-primary" href={clusterHash(clusterId, 'agent')}>
              {t('cluster.agent.install')}
            </a>
          ) : null}
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => void clusterPageStore.getState().requestInventoryReport()}
            disabled={presence !== 'connected' || (action.kind === 'report' && action.pending)}
            data-testid="inventory-report"
            title={presence !== 'connected' ? t('cluster.agent.reportNeedsAgent') : undefined}
          >
            {t('cluster.inventory.askAgent')}
          </button>
        </div>
      ) : null}
      {action.kind === 'report' && action.command ? (
        <p className="help" role="status">
          {t('cluster.inventory.reportSent')} <CommandStateBadge state={action.command.state} />
        </p>
      ) : null}
      {action.kind === 'report' && action.error ? <ErrorNotice error={action.error} testId="inventory-report-error" /> : null}
    </Panel>
  );
}

function InventoryPanel({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const {
    inventory: snapshot,
    inventoryStatus: status,
    inventoryError: error,
    inventoryAction: action,
    coredns,
  } = useClusterPage.fields('inventory', 'inventoryStatus', 'inventoryError', 'inventoryAction', 'coredns');
  const canWrite = useSession(selectCanWrite);

  const refresh = canWrite ? (
    <button
      type="button"
      className="btn btn-sm"
      onClick={() => void clusterPageStore.getState().refreshInventory()}
      disabled={action.kind === 'refresh' && action.pending}
      data-testid="inventory-refresh"
    >
      <Icon name="refresh" />
      {action.kind === 'refresh' && action.pending ? t('cluster.inventory.refreshing') : t('cluster.inventory.refresh')}
    </button>
  ) : null;

  return (
    <Panel
      titleId="inventory-title"
      icon="node"
      title={t('cluster.inventory.title')}
      className="inventory-panel"
      testId="inventory-panel"
      actions={snapshot ? refresh : null}
    >
      {action.kind === 'refresh' && action.error ? <ErrorNotice error={action.error} testId="inventory-refresh-error" /> : null}
      {error ? <ErrorNotice error={error} testId="inventory-error" /> : null}
      {status === 'loading' && !snapshot ? (
        <Loading />
      ) : status === 'missing' || (!snapshot && status !== 'error') ? (
        <EmptyState icon="node" title={t('cluster.inventory.none')} testId="inventory-missing">
          <p>{t('cluster.inventory.noneBody')}</p>
          {canWrite ? (
            <p>
              <a href={clusterHash(clusterId, 'import')}>{t('cluster.inventory.goImport')}</a>
            </p>
          ) : null}
        </EmptyState>
      ) : snapshot ? (
        <>
          <p className="help" data-testid="inventory-meta">
            {t('cluster.inventory.meta', {
              version: snapshot.inventory.kubernetes_version,
              when: fmt.dateTimeLong(snapshot.taken_at),
              source: t(snapshot.source === 'agent' ? 'cluster.inventory.source.agent' : 'cluster.inventory.source.import'),
            })}
          </p>
          <InventorySummary inventory={snapshot.inventory} coredns={<Coredns reading={coredns} snapshot={snapshot} />} />
        </>
      ) : null}
    </Panel>
  );
}

function NodesPanel(): ReactElement | null {
  const t = useT();
  const fmt = useFormat();
  const snapshot = useClusterPage((s) => s.inventory);
  if (!snapshot) return null;
  const nodes = snapshot.inventory.nodes ?? [];
  const ready = nodes.filter((n) => n.ready).length;
  const memory = (q: string): string => {
    const r = readableMemory(q);
    return r ? `${fmt.number(r.value)} ${r.unit}` : q;
  };
  return (
    <Panel
      titleId="inv-nodes"
      icon="node"
      title={t('cluster.inventory.nodes', { ready: fmt.number(ready), total: fmt.number(nodes.length) })}
      className="nodes-panel"
      testId="nodes-panel"
    >
      <DataTable
        columns={[
          ...(['name', 'roles', 'ready', 'kubelet', 'os'] as const).map((c) => t(`cluster.node.${c}`)),
          { header: t('cluster.node.cpu'), className: 'num' },
          { header: t('cluster.node.memory'), className: 'num' },
          { header: t('cluster.node.pods'), className: 'num' },
        ]}
        testId="nodes-table"
        wrap={{ tabIndex: 0, role: 'region', 'aria-labelledby': 'inv-nodes' }}
      >
        {nodes.map((n) => (
          <tr key={n.name} data-testid="node-row">
            <td>
              <code className="nowrap">{n.name}</code>
            </td>
            <td>{n.roles.length > 0 ? n.roles.join(', ') : <span className="muted">{t('cluster.node.noRole')}</span>}</td>
            <td>
              <Tone tone={n.ready ? 'ok' : 'bad'}>{n.ready ? t('cluster.node.isReady') : t('cluster.node.notReady')}</Tone>
            </td>
            <td>
              <code>{n.kubelet_version}</code>
            </td>
            <td>
              {n.os_image} <span className="muted">({n.architecture})</span>
            </td>
            <td className="num">{t('cluster.node.of', { allocatable: n.allocatable.cpu, capacity: n.cpu })}</td>
            <td className="num">
              <span title={`${n.allocatable.memory} / ${n.memory}`}>
                {t('cluster.node.of', { allocatable: memory(n.allocatable.memory), capacity: memory(n.memory) })}
              </span>
            </td>
            <td className="num">{n.allocatable.pods}</td>
          </tr>
        ))}
      </DataTable>
      <p className="help">{t('cluster.node.capacityHelp')}</p>
    </Panel>
  );
}

/** CoreDNS as the newest snapshot that looked for it read it, with when and how when that is not the snapshot shown. */
export function Coredns({ reading, snapshot }: { reading: CorednsReading | null; snapshot: InventorySnapshot }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const c = reading?.coredns;
  if (!reading) return <span className="muted">{t('cluster.inventory.corednsNotRead')}</span>;
  if (!c) return <span className="muted">{t('cluster.inventory.corednsUnknown')}</span>;
  return (
    <>
      <Tone tone={c.ready_replicas >= c.replicas && c.replicas > 0 ? 'ok' : 'bad'}>
        {t('cluster.inventory.corednsReady', { ready: c.ready_replicas, replicas: c.replicas })}
      </Tone>
      {reading.taken_at !== snapshot.taken_at ? (
        <span className="help" data-testid="coredns-from">
          {' '}
          {t('cluster.inventory.corednsFrom', {
            source: t(`cluster.inventory.source.${reading.source}`),
            when: fmt.dateTimeLong(reading.taken_at),
          })}
        </span>
      ) : null}
    </>
  );
}

function InventorySummary({ inventory, coredns }: { inventory: Inventory; coredns: ReactElement }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  return (
    <div className="inventory">
      <div className="inventory-columns">
        <ClassSection
          titleId="inv-sc"
          title={t('cluster.inventory.storageClasses')}
          items={inventory.storage_classes.map((s) => ({ name: s.name, detail: s.provisioner, isDefault: s.default }))}
          empty={t('cluster.inventory.noStorageClass')}
          testId="storage-classes"
          noDefault={
            inventory.storage_classes.length > 0 && !inventory.default_storage_class ? t('cluster.inventory.noDefaultStorage') : null
          }
        />
        <ClassSection
          titleId="inv-ic"
          title={t('cluster.inventory.ingressClasses')}
          items={inventory.ingress_classes.map((s) => ({ name: s.name, detail: s.controller, isDefault: s.default }))}
          empty={t('cluster.inventory.noIngressClass')}
          testId="ingress-classes"
          noDefault={
            inventory.ingress_classes.length > 0 && !inventory.default_ingress_class ? t('cluster.inventory.noDefaultIngress') : null
          }
        />
        <section aria-labelledby="inv-dns">
          <h3 id="inv-dns" className="section-title">
            {t('cluster.inventory.coredns')}
          </h3>
          <p data-testid="coredns">{coredns}</p>
        </section>
      </div>

      <div className="inventory-columns">
        <NameList
          id="inv-ns"
          title={t('cluster.inventory.namespaces', { count: fmt.number(inventory.namespaces.length) })}
          names={inventory.namespaces}
          testId="namespaces"
        />
        <NameList
          id="inv-crd"
          title={t('cluster.inventory.crds', { count: fmt.number(inventory.crds.length) })}
          names={inventory.crds}
          testId="crds"
        />
      </div>
    </div>
  );
}

/** The storage or ingress classes of the inventory, and the warning when none is the default. */
function ClassSection({
  titleId,
  title,
  noDefault,
  ...list
}: {
  titleId: string;
  title: string;
  noDefault: string | null;
  items: { name: string; detail: string; isDefault: boolean }[];
  empty: string;
  testId: string;
}): ReactElement {
  return (
    <section aria-labelledby={titleId}>
      <h3 id={titleId} className="section-title">
        {title}
      </h3>
      <ClassList {...list} />
      {noDefault ? <p className="help warn">{noDefault}</p> : null}
    </section>
  );
}

function ClassList({
  items,
  empty,
  testId,
}: {
  items: { name: string; detail: string; isDefault: boolean }[];
  empty: string;
  testId: string;
}): ReactElement {
  const t = useT();
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="plain-list" data-testid={testId}>
      {items.map((i) => (
        <li key={i.name}>
          <code>{i.name}</code> <span className="muted">{i.detail}</span>
          {i.isDefault ? <span className="badge tone-info badge-default">{t('cluster.inventory.default')}</span> : null}
        </li>
      ))}
    </ul>
  );
}

function NameList({ id, title, names, testId }: { id: string; title: string; names: string[]; testId: string }): ReactElement {
  const t = useT();
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="section-title">
        {title}
      </h3>
      {names.length === 0 ? (
        <p className="muted">{t('cluster.inventory.noneListed')}</p>
      ) : (
        <ul className="chip-list" data-testid={testId} tabIndex={0} aria-labelledby={id}>
          {names.map((n) => (
            <li key={n}>
              <code>{n}</code>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
