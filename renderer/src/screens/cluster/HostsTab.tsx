// The Hosts tab of a hosts cluster: each host with its facts, its node agent's version, connection and last
// report; adding a host; issuing a host's node agent identity with the commands that install it (key shown once).
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import type { HostFacts, HostView } from '../../../../preload/api';
import { hostsStore, useFormat, useHosts, useNow, useSession, useT } from '../../app/stores';
import { selectCanWrite } from '../../stores/session';
import { CodeBlock } from '../../components/CodeBlock';
import { EmptyState } from '../../components/EmptyState';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/Field';
import { StateBadge } from '../../components/StateBadge';

const GiB = (n: number): number => Math.round((n / 1024 ** 3) * 10) / 10;

export function HostsTab({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const items = useHosts((s) => s.items);
  const status = useHosts((s) => s.status);
  const error = useHosts((s) => s.error);
  const identity = useHosts((s) => s.identity);
  const canWrite = useSession(selectCanWrite);

  useEffect(() => {
    void hostsStore.getState().open(clusterId);
  }, [clusterId]);

  return (
    <div className="hosts-tab" data-testid="cluster-hosts">
      <p className="toolbar-count">{t('hosts.liveNote')}</p>
      {error ? <ErrorNotice error={error} testId="hosts-error" /> : null}
      {status === 'loading' && items.length === 0 ? (
        <div className="loading" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('app.loading')}
        </div>
      ) : items.length === 0 ? (
        <EmptyState icon="clusters" title={t('hosts.empty.title')} testId="hosts-empty">
          <p>{t('hosts.empty.body')}</p>
        </EmptyState>
      ) : (
        <table className="table hosts-table" data-testid="hosts-table">
          <caption className="visually-hidden">{t('hosts.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('hosts.col.host')}</th>
              <th scope="col">{t('hosts.col.state')}</th>
              <th scope="col">{t('hosts.col.facts')}</th>
              <th scope="col">{t('hosts.col.agent')}</th>
              <th scope="col">{t('hosts.col.lastReport')}</th>
              {canWrite ? <th scope="col">{t('hosts.col.actions')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {items.map((h) => (
              <HostRow key={h.id} host={h} canWrite={canWrite} />
            ))}
          </tbody>
        </table>
      )}
      {identity ? <IssuedIdentity /> : null}
      {canWrite ? <AddHostForm /> : null}
    </div>
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
  const issuing = useHosts((s) => s.issuing);
  const reporting = useHosts((s) => s.reporting);
  const [gateway, setGateway] = useState('');
  const [open, setOpen] = useState(false);
  const onIssue = (e: FormEvent): void => {
    e.preventDefault();
    void hostsStore
      .getState()
      .issueIdentity(host.id, gateway.trim())
      .then((ok) => ok && setOpen(false));
  };
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
        <FactsSummary facts={host.facts as HostFacts | null} />
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
        <td>
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
          {reporting.error && reporting.hostId === host.id ? <ErrorNotice error={reporting.error} /> : null}
          {open ? (
            <form className="inline-form" onSubmit={onIssue} data-testid={`host-identity-form-${host.name}`}>
              <Field id={`gateway-${host.id}`} label={t('hosts.identity.gateway')} note="required" hint={t('hosts.identity.gatewayHelp')}>
                <input
                  type="url"
                  required
                  placeholder="https://manager.example:8462"
                  value={gateway}
                  onChange={(e) => setGateway(e.target.value)}
                />
              </Field>
              <button type="submit" className="btn btn-primary btn-sm" disabled={issuing.pending}>
                {issuing.pending ? t('hosts.identity.issuing') : t('hosts.identity.issue')}
              </button>
              {issuing.error && issuing.hostId === host.id ? <ErrorNotice error={issuing.error} /> : null}
            </form>
          ) : null}
        </td>
      ) : null}
    </tr>
  );
}

function IssuedIdentity(): ReactElement | null {
  const t = useT();
  const identity = useHosts((s) => s.identity);
  const host = useHosts((s) => s.items.find((h) => h.id === s.identity?.hostId));
  if (!identity) return null;
  const v = identity.value;
  return (
    <section className="panel" aria-labelledby="host-identity-title" data-testid="host-identity">
      <h3 id="host-identity-title">{t('hosts.identity.title', { host: host?.name ?? v.host_id })}</h3>
      <p className="notice notice-warn">{t('hosts.identity.keyOnce')}</p>
      <p>{t('hosts.identity.steps', { dir: v.identity_dir, file: v.package_file })}</p>
      <CodeBlock text={`${v.install_commands.join('\n')}\n`} label={t('hosts.identity.commands')} testId="host-install-commands" />
      {Object.entries(v.files).map(([name, text]) => (
        <CodeBlock key={name} text={text} label={name} fileName={name} testId={`host-file-${name}`} />
      ))}
      <button type="button" className="btn" onClick={() => hostsStore.getState().closeIdentity()}>
        {t('hosts.identity.done')}
      </button>
    </section>
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
    <form className="panel form-grid" onSubmit={onSubmit} aria-labelledby="add-host-title" data-testid="add-host-form">
      <h3 id="add-host-title">{t('hosts.add.title')}</h3>
      <Field id="host-name" label={t('hosts.add.name')} note="required" hint={t('hosts.add.nameHelp')}>
        <input required autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field id="host-address" label={t('hosts.add.address')} note="required">
        <input required autoComplete="off" value={address} onChange={(e) => setAddress(e.target.value)} placeholder="10.0.0.21" />
      </Field>
      {adding.error ? <ErrorNotice error={adding.error} testId="add-host-error" /> : null}
      <button type="submit" className="btn btn-primary" disabled={adding.pending}>
        {adding.pending ? t('hosts.add.adding') : t('hosts.add.submit')}
      </button>
    </form>
  );
}
