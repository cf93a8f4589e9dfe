// "Install a service": a service and one of its versions from the catalog, the hosts of the cluster it runs on
// (checkboxes; the first checked runs the readiness and functional test), and under a four-eyes profile the
// approval it is launched with. A refusal says why (preflight failed, approval needed, installed already…).
import { useState, type FormEvent, type ReactElement } from 'react';
import { servicesStore, useHosts, useServices, useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/Field';
import { Panel } from '../../components/Panel';
import { StateBadge } from '../../components/StateBadge';
import { installRequest } from './store';
import { ApprovalPicker } from '../approvals/ApprovalPicker';
import { useFourEyesActions } from '../components/ComponentActions';
import { OperationError } from '../cluster/OperationError';
import { ItemOptions } from '../../components/Options';

export function InstallServiceForm({
  clusterId,
  onInstalled,
}: {
  clusterId: string;
  onInstalled: (service: string) => void;
}): ReactElement {
  const t = useT();
  const { catalog, catalogValid, catalogError, installing } = useServices.fields('catalog', 'catalogValid', 'catalogError', 'installing');
  const hosts = useHosts((s) => s.items);
  const needsApproval = useFourEyesActions(clusterId).includes('install');
  const [service, setService] = useState('');
  const [version, setVersion] = useState('');
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [approvalId, setApprovalId] = useState('');
  const versions = catalog.find((s) => s.service === service)?.versions ?? [];

  const pickService = (name: string): void => {
    setService(name);
    setVersion(catalog.find((s) => s.service === name)?.versions[0]?.version ?? '');
    setApprovalId('');
    servicesStore.getState().clearInstall();
  };
  const toggle = (hostId: string): void => {
    const next = new Set(checked);
    if (!next.delete(hostId)) next.add(hostId);
    setChecked(next);
  };
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    const request = installRequest({ service, version, hostOrder: hosts.map((h) => h.id), checked, approvalId });
    void servicesStore
      .getState()
      .install(request)
      .then((op) => {
        if (!op) return;
        onInstalled(op.service);
        setService('');
        setVersion('');
        setChecked(new Set());
        setApprovalId('');
      });
  };

  return (
    <Panel titleId="install-service-title" title={t('services.install.title')} icon="plus" testId="install-service-panel">
      <p className="help">{t('services.install.help')}</p>
      {catalogError ? <ErrorNotice error={catalogError} testId="catalog-error" /> : null}
      {catalogValid ? null : <p className="notice notice-warning">{t('services.install.catalogInvalid')}</p>}
      <form className="form-grid" onSubmit={onSubmit} data-testid="install-service-form">
        <Field id="install-service" label={t('services.install.service')} note="required">
          <select value={service} onChange={(e) => pickService(e.target.value)} required data-testid="install-service">
            <option value="">{t('services.install.choose')}</option>
            <ItemOptions items={catalog} value={(s) => s.service} label={(s) => `${s.title} (${s.service})`} />
          </select>
        </Field>
        <Field id="install-version" label={t('services.install.version')} note="required">
          <select value={version} onChange={(e) => setVersion(e.target.value)} required disabled={!service} data-testid="install-version">
            <ItemOptions items={versions} value={(v) => v.version} label={(v) => v.version} />
          </select>
        </Field>
        <fieldset className="field host-choice" aria-describedby="install-hosts-help" data-testid="install-hosts">
          <legend>{t('services.install.hosts')}</legend>
          <p id="install-hosts-help" className="help">
            {t('services.install.hostsHelp')}
          </p>
          {hosts.length === 0 ? <p className="muted">{t('services.install.noHosts')}</p> : null}
          {hosts.map((h) => (
            <label key={h.id} className="radio-option">
              <input
                type="checkbox"
                checked={checked.has(h.id)}
                disabled={!h.facts}
                onChange={() => toggle(h.id)}
                data-testid={`install-host-${h.name}`}
              />
              <span>
                {h.name} <code className="muted">{h.address}</code> <StateBadge state={h.state} />
                {h.facts ? null : <span className="help"> {t('services.install.noFacts')}</span>}
              </span>
            </label>
          ))}
        </fieldset>
        {needsApproval && service ? (
          <p className="install-approval">
            <ApprovalPicker action="install" service={service} state={[approvalId, setApprovalId]} idSuffix="install" />
          </p>
        ) : null}
        {installing.error ? <OperationError error={installing.error} clusterId={clusterId} testId="install-service-error" /> : null}
        <button
          type="submit"
          className="btn btn-primary"
          disabled={installing.pending || !service || !version || checked.size === 0}
          data-testid="install-service-submit"
        >
          {installing.pending ? t('services.install.installing') : t('services.install.submit')}
        </button>
      </form>
    </Panel>
  );
}
