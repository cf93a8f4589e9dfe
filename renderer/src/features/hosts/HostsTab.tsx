// The Hosts tab of a hosts cluster: each host with its facts, its node agent's version, connection and last
// report; adding a host; removing one (under four eyes with an approval); issuing a host's node agent identity with the commands that install it (key shown once).
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import type { HostFacts, HostView } from '../../../../preload/api';
import { hostsStore, useFormat, useHosts, useNow, useSession, useT } from '../../app/stores';
import { selectCanWrite } from '../session/store';
import type { HostsState } from './store';
import { CodeBlock } from '../../components/CodeBlock';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ListView, type EmptyList } from '../../components/ListView';
import { Panel } from '../../components/Panel';
import { StateBadge } from '../../components/StateBadge';
import { TabPanel, type TabIdentity } from '../../components/TabPanel';
import { TextField } from '../../components/TextField';
import { Confirm } from '../../components/Confirm';
import { ApprovalRetry, type ApprovableAct } from '../approvals/RetryWithApproval';

/** An act on a host, as its approval names it. */
const hostAct = (host: HostView, action: string): ApprovableAct => ({ clusterId: host.cluster_id, action, service: host.name });
const GiB = (n: number): number => Math.round((n / 1024 ** 3) * 10) / 10;
const COLUMNS = ['host', 'state', 'facts', 'agent', 'lastReport'] as const;
const TAB: TabIdentity = { name: 'hosts', icon: 'clusters', title: 'hosts.caption', help: 'hosts.liveNote' };
const EMPTY: EmptyList = { icon: 'clusters', title: 'hosts.empty.title', body: 'hosts.empty.body', testId: 'hosts-empty' };

export function HostsTab({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const { items, status, error, identity } = useHosts.fields('items', 'status', 'error', 'identity');
  const canWrite = useSession(selectCanWrite);

  useEffect(() => {
    void hostsStore.getState().open(clusterId);
  }, [clusterId]);

  return (
    <TabPanel
      tab={TAB}
      onReload={() => void hostsStore.getState().load()}
      after={
        <>
          {identity ? <IssuedIdentity /> : null}
          {canWrite ? <AddHostForm /> : null}
        </>
      }
    >
      {error ? <ErrorNotice error={error} testId="hosts-error" /> : null}
      <ListView status={status} count={items.length} empty={EMPTY}>
        <DataTable
          caption={t('hosts.caption')}
          columns={[...COLUMNS.map((c) => t(`hosts.col.${c}`)), canWrite ? { header: t('hosts.col.actions'), hidden: true } : null]}
          className="hosts-table"
          testId="hosts-table"
        >
          {items.map((h) => (
            <HostRow key={h.id} host={h} canWrite={canWrite} />
          ))}
        </DataTable>
      </ListView>
    </TabPanel>
  );
}

function FactsSummary({ facts }: { facts: HostFacts | null }): ReactElement {
  const t = useT();
  if (!facts) return <span className="muted">{t('hosts.facts.none')}</span>;
  return (
    <dl className="facts" data-testid="host-facts">
      <dt>{t('hosts.facts.os')}</dt>
      <dd>{`${facts.os.distro} ${facts.os.release} · ${facts.kernel}`}</dd>
      <dt>{t('hosts.facts.arch')}</dt>
      <dd>{facts.architecture}</dd>
      <dt>{t('hosts.facts.cpu')}</dt>
      <dd>{t('hosts.facts.cores', { count: facts.cpu.cores })}</dd>
      <dt>{t('hosts.facts.memory')}</dt>
      <dd>{t('hosts.facts.gib', { total: GiB(facts.memory.total_bytes), free: GiB(facts.memory.available_bytes) })}</dd>
      <dt>{t('hosts.facts.disks')}</dt>
      <dd>
        {facts.disks
          .map((d) => t('hosts.facts.disk', { mount: d.mount, free: GiB(d.available_bytes), size: GiB(d.size_bytes) }))
          .join(', ')}
      </dd>
      <dt>{t('hosts.facts.systemd')}</dt>
      <dd>
        {facts.systemd.version ? `systemd ${facts.systemd.version} (${facts.systemd.system_state ?? '?'})` : t('hosts.facts.noSystemd')}
      </dd>
    </dl>
  );
}

function HostRow({ host, canWrite }: { host: HostView; canWrite: boolean }): ReactElement {
  const t = useT();
  const f = useFormat();
  const now = useNow();
  return (
    <tr data-testid={`host-${host.name}`}>
      <th scope="row">
        <strong>{host.name}</strong>
        <br />
        <code>{host.address}</code>
      </th>
      <td>
        <StateBadge state={host.state} />
      </td>
      <td>
        <FactsSummary facts={host.facts} />
      </td>
      <td>
        {host.agent.agent_version ?? '—'}
        {host.agent.last_seen ? (
          <div className="muted" title={f.dateTimeLong(host.agent.last_seen)}>
            {t('hosts.agent.seen', { when: f.relative(host.agent.last_seen, now) })}
          </div>
        ) : null}
      </td>
      <td>{host.facts_at ? <span title={f.dateTimeLong(host.facts_at)}>{f.relative(host.facts_at, now)}</span> : '—'}</td>
      {canWrite ? (
        <td className="row-actions">
          <HostActions host={host} />
        </td>
      ) : null}
    </tr>
  );
}

function HostActions({ host }: { host: HostView }): ReactElement {
  const t = useT();
  const { issuing, reporting } = useHosts.fields('issuing', 'reporting');
  const [gateway, setGateway] = useState('');
  const [open, setOpen] = useState(false);
  /** A re-issue revokes the running agent: under four eyes, with an approval of it for this host. */
  const issue = (approvalId?: string): void =>
    void hostsStore
      .getState()
      .issueIdentity(host.id, gateway.trim(), undefined, approvalId)
      .then((ok) => ok && setOpen(false));
  const onIssue = (e: FormEvent): void => {
    e.preventDefault();
    issue();
  };
  return (
    <>
      <button
        type="button"
        className="btn btn-sm"
        disabled={reporting.pending && reporting.hostId === host.id}
        onClick={() => void hostsStore.getState().reportFacts(host.id)}
        data-testid={`host-report-${host.name}`}
      >
        {t('hosts.action.report')}
      </button>{' '}
      <button type="button" className="btn btn-sm" onClick={() => setOpen(!open)} aria-expanded={open}>
        {t('hosts.action.identity')}
      </button>
      <RemoveHost host={host} />
      {reporting.error && reporting.hostId === host.id ? <ErrorNotice error={reporting.error} /> : null}
      {open ? (
        <form className="inline-form" onSubmit={onIssue} data-testid={`host-identity-form-${host.name}`}>
          <TextField
            id={`gateway-${host.id}`}
            label={t('hosts.identity.gateway')}
            note="required"
            hint={t('hosts.identity.gatewayHelp')}
            value={gateway}
            onChange={setGateway}
            code
            placeholder="https://manager.example:8462"
            input={{ type: 'url', required: true }}
          />
          <button type="submit" className="btn btn-primary btn-sm" disabled={issuing.pending}>
            {issuing.pending ? t('hosts.identity.issuing') : t('hosts.identity.issue')}
          </button>
          {issuing.error && issuing.hostId === host.id ? <ErrorNotice error={issuing.error} /> : null}
          {issuing.hostId === host.id ? (
            <ApprovalRetry write={issuing} act={hostAct(host, 'reissue_identity')} idSuffix={`identity-${host.id}`} onRetry={issue} />
          ) : null}
        </form>
      ) : null}
    </>
  );
}

/** Removing a host asks first; where the profile wants four eyes, a refusal offers the requester's approvals of it. */
function RemoveHost({ host }: { host: HostView }): ReactElement {
  const removing = useHosts((s) => s.removing);
  const [confirming, setConfirming] = useState(false);
  return (
    <HostRemoval
      host={host}
      removing={removing}
      confirming={confirming}
      onConfirming={setConfirming}
      onRemove={(approvalId) => void hostsStore.getState().remove(host.id, approvalId)}
    />
  );
}

/** The removal's button, its question, and its refusal with the approval picker (state held by the caller). */
export function HostRemoval({
  host,
  removing,
  confirming,
  onConfirming,
  onRemove,
}: {
  host: HostView;
  removing: HostsState['removing'];
  confirming: boolean;
  onConfirming: (confirming: boolean) => void;
  onRemove: (approvalId?: string) => void;
}): ReactElement {
  const t = useT();
  const mine = removing.hostId === host.id;
  return (
    <>
      {' '}
      <button
        type="button"
        className="btn btn-sm btn-danger-ghost"
        onClick={() => onConfirming(true)}
        aria-expanded={confirming}
        data-testid={`host-remove-${host.name}`}
      >
        {t('hosts.action.remove')}
      </button>
      {confirming ? (
        <Confirm
          titleId={`confirm-remove-${host.id}`}
          title={t('hosts.remove.confirm', { name: host.name })}
          role="group"
          testId={`host-remove-confirm-${host.name}`}
          onCancel={() => onConfirming(false)}
          confirm={{ label: t('hosts.remove.submit'), onClick: () => onRemove(), disabled: removing.pending }}
        />
      ) : null}
      {removing.error && mine ? <ErrorNotice error={removing.error} testId={`host-remove-error-${host.name}`} /> : null}
      {mine ? (
        <ApprovalRetry write={removing} act={hostAct(host, 'delete_host')} idSuffix={`remove-${host.id}`} onRetry={onRemove} />
      ) : null}
    </>
  );
}

function IssuedIdentity(): ReactElement | null {
  const t = useT();
  const identity = useHosts((s) => s.identity);
  const host = useHosts((s) => s.items.find((h) => h.id === s.identity?.hostId));
  if (!identity) return null;
  const v = identity.value;
  return (
    <Panel titleId="host-identity-title" title={t('hosts.identity.title', { host: host?.name ?? v.host_id })} testId="host-identity">
      <p className="notice notice-warn">{t('hosts.identity.keyOnce')}</p>
      <p>{t('hosts.identity.steps', { dir: v.identity_dir, file: v.package_file })}</p>
      <CodeBlock text={`${v.install_commands.join('\n')}\n`} label={t('hosts.identity.commands')} testId="host-install-commands" />
      {Object.entries(v.files).map(([name, text]) => (
        <CodeBlock key={name} text={text} label={name} fileName={name} testId={`host-file-${name}`} />
      ))}
      <button type="button" className="btn" onClick={() => hostsStore.getState().closeIdentity()}>
        {t('hosts.identity.done')}
      </button>
    </Panel>
  );
}

function AddHostForm(): ReactElement {
  const t = useT();
  const adding = useHosts((s) => s.adding);
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    void hostsStore
      .getState()
      .add(name.trim(), address.trim())
      .then((ok) => {
        if (ok) {
          setName('');
          setAddress('');
        }
      });
  };
  return (
    <Panel titleId="add-host-title" title={t('hosts.add.title')} testId="add-host-panel">
      <form className="form-grid" onSubmit={onSubmit} data-testid="add-host-form">
        <TextField
          id="host-name"
          label={t('hosts.add.name')}
          note="required"
          hint={t('hosts.add.nameHelp')}
          value={name}
          onChange={setName}
          code
          input={{ required: true }}
        />
        <TextField
          id="host-address"
          label={t('hosts.add.address')}
          note="required"
          value={address}
          onChange={setAddress}
          code
          placeholder="10.0.0.21"
          input={{ required: true }}
        />
        {adding.error ? <ErrorNotice error={adding.error} testId="add-host-error" /> : null}
        <button type="submit" className="btn btn-primary" disabled={adding.pending}>
          {adding.pending ? t('hosts.add.adding') : t('hosts.add.submit')}
        </button>
      </form>
    </Panel>
  );
}
