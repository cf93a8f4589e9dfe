// The component sheet of one service: its title and observed state, a refresh that asks the agents to report now,
// and twelve tabs, each its own address (#/clusters/<id>/services/<service>/<tab>) reachable by keyboard.
import { lazy, Suspense, useEffect, type ComponentType, type ReactElement } from 'react';
import type { SheetTab } from '../../../../preload/api';
import { routerStore, serviceSheetStore, useServiceSheet, useSession, useT } from '../../app/stores';
import { BusyButton } from '../../components/BusyButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { TabPanel, Tabs } from '../../components/Tabs';
import { clusterHash, sheetHash, SHEET_TABS } from '../../stores/router';
import { selectCanWrite } from '../session/store';
import { ObservedStateBadge } from './ObservedStateBadge';
import { SheetAudit } from './SheetAudit';
import { SheetBackups } from './SheetBackups';
import { SheetConfiguration } from './SheetConfiguration';
import { SheetDependencies } from './SheetDependencies';
import { SheetInstances } from './SheetInstances';
import { SheetLogs } from './SheetLogs';
import { SheetOperations } from './SheetOperations';
import { SheetOverview } from './SheetOverview';
import { SheetSecurity } from './SheetSecurity';
import { SheetSupport } from './SheetSupport';
import { SheetUpgrade } from './SheetUpgrade';
import { Unobserved } from './Unobserved';

// The chart library is loaded with the Metrics tab, not with every cluster page.
const SheetMetrics = lazy(() => import('./SheetMetrics').then((m) => ({ default: m.SheetMetrics })));

const PANELS: Record<SheetTab, ComponentType<{ clusterId: string; service: string }>> = {
  overview: SheetOverview,
  instances: SheetInstances,
  configuration: SheetConfiguration,
  dependencies: SheetDependencies,
  logs: SheetLogs,
  metrics: SheetMetrics,
  security: SheetSecurity,
  operations: SheetOperations,
  upgrade: SheetUpgrade,
  backups: SheetBackups,
  audit: SheetAudit,
  support: SheetSupport,
};

export function ServiceSheetPage({ clusterId, service, tab }: { clusterId: string; service: string; tab: SheetTab }): ReactElement {
  const t = useT();
  const { sheet, refreshing } = useServiceSheet.fields('sheet', 'refreshing');
  const canWrite = useSession(selectCanWrite);
  useEffect(() => {
    void serviceSheetStore.getState().open(clusterId, service);
  }, [clusterId, service]);
  const s = sheet.value && sheet.value.service === service ? sheet.value : null;
  const Body = PANELS[tab];
  const reason = s?.unobserved[tab];
  return (
    <section className="service-sheet" aria-labelledby="sheet-title" data-testid="service-sheet" data-service={service} data-tab={tab}>
      <p>
        <a href={clusterHash(clusterId, s?.cluster_kind === 'kubernetes' ? 'components' : 'services')} data-testid="sheet-back">
          {t(s?.cluster_kind === 'kubernetes' ? 'sheet.backComponents' : 'sheet.back')}
        </a>
      </p>
      <div className="panel-head">
        <h2 id="sheet-title" className="panel-title">
          {s ? s.title : service} <code className="muted">{service}</code>{' '}
          {s ? <ObservedStateBadge state={s.overview.state} testId="sheet-state" /> : null}
        </h2>
        <BusyButton
          busy={refreshing}
          text={['sheet.refresh', 'sheet.refreshing']}
          icon="refresh"
          onClick={() => void serviceSheetStore.getState().refresh(canWrite)}
          testId="sheet-refresh"
        />
      </div>
      {s?.description ? <p className="help">{s.description}</p> : null}
      {sheet.error ? <ErrorNotice error={sheet.error} testId="sheet-error" /> : null}
      <Tabs
        tabs={SHEET_TABS.map((id) => ({ id, label: t(`sheet.tab.${id}`), href: sheetHash(clusterId, service, id) }))}
        current={tab}
        label={t('sheet.tabs', { service })}
        idPrefix="sheet"
        onSelect={(id) => routerStore.getState().openSheet(clusterId, service, id)}
      />
      <TabPanel idPrefix="sheet" current={tab}>
        {!s ? (
          sheet.status === 'error' ? null : (
            <Loading />
          )
        ) : reason ? (
          <Unobserved reason={reason} />
        ) : (
          <Suspense fallback={<Loading />}>
            <Body clusterId={clusterId} service={service} />
          </Suspense>
        )}
      </TabPanel>
    </section>
  );
}
