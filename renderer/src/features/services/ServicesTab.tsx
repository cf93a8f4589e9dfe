// The Services tab of a hosts cluster: the catalog services installed on its hosts (state, hosts, latest
// checks, actions), the newest operation of one followed live (the one picked, else the one running), and the
// form that installs another. Everything reloads on pushed `service.changed` and `command.changed` events.
import { useEffect, useState, type ReactElement } from 'react';
import type { ServiceAction } from '../../../../preload/api';
import { hostsStore, servicesStore, useServices, useSession } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ListView, type EmptyList } from '../../components/ListView';
import { TabPanel, type TabIdentity } from '../../components/TabPanel';
import { DISRUPTIVE_ACTIONS, shownOperationService } from './store';
import { selectCanWrite } from '../session/store';
import { useFourEyesActions, useFourEyesScope } from '../components/ComponentActions';
import { InstallServiceForm } from './InstallServiceForm';
import { OperationError } from '../cluster/OperationError';
import { ServiceActionConfirm } from './ServiceActions';
import { ServiceOperation } from './ServiceOperation';
import { ServicesTable } from './ServicesTable';
import { ServiceUpgrade } from './ServiceUpgrade';

const TAB: TabIdentity = { name: 'services', icon: 'components', title: 'services.title', help: 'services.liveNote' };
const EMPTY: EmptyList = { icon: 'components', title: 'services.empty.title', body: 'services.empty.body', testId: 'services-empty' };

export function ServicesTab({ clusterId }: { clusterId: string }): ReactElement {
  const { items, status, error, acting } = useServices.fields('items', 'status', 'error', 'acting');
  const canWrite = useSession(selectCanWrite);
  const fourEyes = useFourEyesActions(clusterId);
  /** The service whose operation is shown; undefined: none picked (the running one is shown), null: none. */
  const [picked, setPicked] = useState<string | null | undefined>(undefined);
  const [confirming, setConfirming] = useState<{ service: string; action: ServiceAction } | null>(null);

  useFourEyesScope(clusterId);
  useEffect(() => {
    void servicesStore.getState().open(clusterId);
    // The install form's hosts.
    void hostsStore.getState().open(clusterId);
  }, [clusterId]);

  const shown = shownOperationService(items, picked);
  const onAction = (service: string, action: ServiceAction): void => {
    servicesStore.getState().clearAction();
    if (DISRUPTIVE_ACTIONS.includes(action) || fourEyes.includes(action)) setConfirming({ service, action });
    else
      void servicesStore
        .getState()
        .runAction(service, action)
        .then((op) => op && setPicked(service));
  };

  return (
    <TabPanel
      tab={TAB}
      onReload={() => void servicesStore.getState().load()}
      after={
        <>
          {shown?.operation ? <ServiceOperation operation={shown.operation} /> : null}
          {canWrite ? <ServiceUpgrade onStarted={setPicked} /> : null}
          {canWrite ? <InstallServiceForm clusterId={clusterId} onInstalled={setPicked} /> : null}
        </>
      }
    >
      {error ? <ErrorNotice error={error} testId="services-error" /> : null}
      {acting.error ? <OperationError error={acting.error} clusterId={clusterId} testId="service-action-error" /> : null}
      {confirming ? (
        <ServiceActionConfirm
          service={confirming.service}
          action={confirming.action}
          fourEyes={fourEyes.includes(confirming.action)}
          onDone={(launched) => {
            if (launched) setPicked(confirming.service);
            setConfirming(null);
          }}
        />
      ) : null}
      <ListView status={status} count={items.length} empty={EMPTY}>
        <ServicesTable
          clusterId={clusterId}
          items={items}
          canWrite={canWrite}
          shown={shown?.service ?? null}
          onShow={setPicked}
          onAction={onAction}
        />
      </ListView>
    </TabPanel>
  );
}
