// The cluster's FQDN and address, which the DNS and TLS rules of its profile check: operators change them
// here; an empty field clears it, and a refused value is shown next to its field.
import { useEffect, useState, type ReactElement } from 'react';
import { clusterPageStore, profileStore, useClusterPage, useProfile, useT } from '../../app/stores';
import { ErrorNotice, InfoNotice } from '../../components/ErrorNotice';
import { Form } from '../../components/Form';
import { EndpointFields, type EndpointField } from '../../components/EndpointFields';

export function ClusterEndpointForm(): ReactElement {
  const t = useT();
  const cluster = useClusterPage((s) => s.cluster);
  const endpoint = useProfile((s) => s.endpoint);
  const [fqdn, setFqdn] = useState('');
  const [address, setAddress] = useState('');
  const [saved, setSaved] = useState(false);
  const currentFqdn = cluster?.fqdn ?? '';
  const currentAddress = cluster?.address ?? '';
  useEffect(() => setFqdn(currentFqdn), [currentFqdn]);
  useEffect(() => setAddress(currentAddress), [currentAddress]);

  const error = endpoint.error;
  const errorOn = (field: EndpointField): string | null =>
    error?.code === 'invalid_field' && error.field === field ? error.message : null;
  const onField = errorOn('fqdn') !== null || errorOn('address') !== null;
  const unchanged = fqdn.trim() === currentFqdn && address.trim() === currentAddress;
  const setters = { fqdn: setFqdn, address: setAddress };
  const edit = (field: EndpointField, value: string): void => {
    setters[field](value);
    setSaved(false);
    if (error) profileStore.getState().clearEndpointError();
  };

  const onSubmit = async (): Promise<void> => {
    if (endpoint.pending || unchanged) return;
    const updated = await profileStore.getState().setEndpoint({ fqdn: fqdn.trim() || null, address: address.trim() || null });
    if (updated) {
      setSaved(true);
      void clusterPageStore.getState().loadCluster();
    }
  };

  return (
    <Form onSubmit={onSubmit} labelledBy="endpoint-title" testId="cluster-endpoint-form">
      <h3 id="endpoint-title" className="panel-subtitle">
        {t('profile.endpoint.title')}
      </h3>
      <p className="help">{t('profile.endpoint.help')}</p>
      <div className="form-grid">
        <EndpointFields idPrefix="endpoint" values={{ fqdn, address }} onChange={edit} errorOn={errorOn} />
      </div>
      {error && !onField ? <ErrorNotice error={error} testId="endpoint-error" /> : null}
      {saved ? <InfoNotice testId="endpoint-saved">{t('settings.saved')}</InfoNotice> : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-sm" disabled={endpoint.pending || unchanged} data-testid="endpoint-save">
          {endpoint.pending ? t('common.saving') : t('common.save')}
        </button>
      </div>
    </Form>
  );
}
