// Upgrade: the Services tab's upgrade panel for this service (compatibility, migrations, rollback, the restore a
// refused rollback offers); what it starts is followed in the Operations tab.
import { useEffect, type ReactElement } from 'react';
import { routerStore, servicesStore } from '../../app/stores';
import { ServiceUpgrade } from '../services/ServiceUpgrade';

export function SheetUpgrade({ clusterId, service }: { clusterId: string; service: string }): ReactElement {
  useEffect(() => {
    void servicesStore.getState().open(clusterId);
  }, [clusterId]);
  return <ServiceUpgrade service={service} onStarted={() => routerStore.getState().openSheet(clusterId, service, 'operations')} />;
}
