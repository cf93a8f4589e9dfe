// One cluster: header (name, state, tenant, profile), then tabs: overview (agent and inventory), profile (rules,
// preflight checks, backups), import, agent installation, components, hosts, services, their backups, drift and
// support archives (hosts clusters) and commands. The tab is part of the address (#/clusters/<id>/<tab>).
import { useEffect, type ReactElement } from 'react';
import { clusterPageStore, clusterSetupStore, routerStore, useClusterPage, useRouter, useSession, useT } from '../../app/stores';
import { clusterHash, hasClusterTab, hashOf, type ClusterTab } from '../../stores/router';
import { selectCanWrite } from '../session/store';
import { EmptyState } from '../../components/EmptyState';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Icon } from '../../components/Icon';
import { StateBadge } from '../../components/StateBadge';
import { TabPanel, Tabs, type TabItem } from '../../components/Tabs';
import { AgentWizard } from './AgentWizard';
import { ClusterCommandsTab } from '../commands/ClusterCommandsTab';
import { ComponentsTab } from '../components/ComponentsTab';
import { ImportWizard } from './ImportWizard';
import { OverviewTab } from './OverviewTab';
import { ProfileTab } from '../profile/ProfileTab';
import { HostsTab } from '../hosts/HostsTab';
import { ServicesTab } from '../services/ServicesTab';
import { ServiceBackupsTab } from '../hosts-care/ServiceBackupsTab';
import { DriftTab } from '../hosts-care/DriftTab';
import { SupportTab } from '../hosts-care/SupportTab';
import { ScreenHeader } from '../../components/ScreenHeader';
import { ServiceSheetPage } from '../service-sheet/ServiceSheetPage';
import { RefreshButton } from '../../components/RefreshButton';

export function ClusterPage({ clusterId }: { clusterId: string }): ReactElement {
  const t = useT();
  const { clusterTab: tab, service, sheetTab } = useRouter.fields('clusterTab', 'service', 'sheetTab');
  const cluster = useClusterPage((s) => (s.clusterId === clusterId ? s.cluster : null));
  const { status, error } = useClusterPage.fields('status', 'error');
  const canWrite = useSession(selectCanWrite);

  useEffect(() => {
    clusterSetupStore.getState().bind(clusterId);
    void clusterPageStore.getState().open(clusterId);
  }, [clusterId]);

  useEffect(() => {
    if (cluster) document.title = `${cluster.name} · ${t('app.name')}`;
  }, [cluster, t]);

  const tabs: TabItem<ClusterTab>[] = (
    [
      { id: 'overview', label: t('cluster.tab.overview') },
      { id: 'profile', label: t('cluster.tab.profile') },
      { id: 'import', label: t('cluster.tab.import') },
      { id: 'agent', label: t('cluster.tab.agent') },
      { id: 'hosts', label: t('cluster.tab.hosts') },
      { id: 'services', label: t('cluster.tab.services') },
      { id: 'backups', label: t('cluster.tab.backups') },
      { id: 'drift', label: t('cluster.tab.drift') },
      { id: 'support', label: t('cluster.tab.support') },
      { id: 'components', label: t('cluster.tab.components') },
      { id: 'commands', label: t('cluster.tab.commands') },
    ] as const
  )
    .filter((x) => hasClusterTab(x.id, cluster?.kind, canWrite))
    .map((x) => ({ ...x, href: clusterHash(clusterId, x.id) }));
  // A service's sheet opens under the tab that lists it: Services on hosts, Components on Kubernetes.
  const wanted: ClusterTab = service ? (cluster?.kind === 'kubernetes' ? 'components' : 'services') : tab;
  const shown: ClusterTab = tabs.some((x) => x.id === wanted) ? wanted : (tabs[0]?.id ?? 'overview');

  if (!cluster && status === 'error' && error?.code === 'not_found') {
    return (
      <section className="screen" aria-labelledby="screen-title">
        <BackLink />
        <h1 id="screen-title" className="page-title" tabIndex={-1}>
          {t('cluster.missing.title')}
        </h1>
        <EmptyState icon="clusters" title={t('cluster.missing.title')} testId="cluster-missing">
          <p>{t('cluster.missing.body')}</p>
        </EmptyState>
      </section>
    );
  }

  return (
    <section className="screen screen-cluster" aria-labelledby="screen-title" data-testid="cluster-page" data-cluster-id={clusterId}>
      <BackLink />
      <ScreenHeader
        titleClassName="cluster-title"
        title={
          <>
            {cluster ? cluster.name : t('cluster.loading')}
            {cluster ? <StateBadge state={cluster.state} /> : null}
          </>
        }
        subtitle={
          cluster ? (
            <>
              {cluster.description ? (
                <>
                  {cluster.description}
                  <span className="sep" aria-hidden="true">
                    ·
                  </span>
                </>
              ) : null}
              {t('cluster.tenant', { tenant: cluster.tenant })}
              {cluster.profile ? (
                <>
                  <span className="sep" aria-hidden="true">
                    ·
                  </span>
                  <span data-testid="cluster-profile">{t(`profile.name.${cluster.profile}`)}</span>
                </>
              ) : null}
              {cluster.fqdn ? (
                <>
                  <span className="sep" aria-hidden="true">
                    ·
                  </span>
                  <code>{cluster.address ? `${cluster.fqdn} (${cluster.address})` : cluster.fqdn}</code>
                </>
              ) : null}
              <span className="sep" aria-hidden="true">
                ·
              </span>
              <code className="selectable" title={t('clusters.details.id')}>
                {cluster.id}
              </code>
            </>
          ) : null
        }
        actions={<RefreshButton onClick={() => void clusterPageStore.getState().open(clusterId)} />}
      />

      {error && error.code !== 'not_found' ? <ErrorNotice error={error} testId="cluster-error" /> : null}

      <Tabs
        tabs={tabs}
        current={shown}
        label={t('cluster.tabs.label')}
        idPrefix="cluster"
        onSelect={(id) => routerStore.getState().openCluster(clusterId, id)}
      />
      <TabPanel idPrefix="cluster" current={shown}>
        {service && cluster ? <ServiceSheetPage clusterId={clusterId} service={service} tab={sheetTab} /> : null}
        {service ? null : <ClusterTabBody clusterId={clusterId} shown={shown} />}
      </TabPanel>
    </section>
  );
}

function ClusterTabBody({ clusterId, shown }: { clusterId: string; shown: ClusterTab }): ReactElement {
  return (
    <>
      {shown === 'overview' ? <OverviewTab clusterId={clusterId} /> : null}
      {shown === 'profile' ? <ProfileTab clusterId={clusterId} /> : null}
      {shown === 'import' ? <ImportWizard clusterId={clusterId} /> : null}
      {shown === 'agent' ? <AgentWizard clusterId={clusterId} /> : null}
      {shown === 'hosts' ? <HostsTab clusterId={clusterId} /> : null}
      {shown === 'services' ? <ServicesTab clusterId={clusterId} /> : null}
      {shown === 'backups' ? <ServiceBackupsTab clusterId={clusterId} /> : null}
      {shown === 'drift' ? <DriftTab clusterId={clusterId} /> : null}
      {shown === 'support' ? <SupportTab clusterId={clusterId} /> : null}
      {shown === 'components' ? <ComponentsTab clusterId={clusterId} /> : null}
      {shown === 'commands' ? <ClusterCommandsTab clusterId={clusterId} /> : null}
    </>
  );
}

function BackLink(): ReactElement {
  const t = useT();
  return (
    <a className="back-link" href={hashOf('clusters')} data-testid="back-to-clusters">
      <Icon name="back" />
      {t('cluster.back')}
    </a>
  );
}
