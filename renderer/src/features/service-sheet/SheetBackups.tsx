// Backups: the cluster's Backups tab narrowed to this service: Back up now for it alone, its backups in every set
// with their sha256, and their restore.
import type { ReactElement } from 'react';
import { ServiceBackupsTab } from '../hosts-care/ServiceBackupsTab';

export function SheetBackups({ clusterId, service }: { clusterId: string; service: string }): ReactElement {
  return <ServiceBackupsTab clusterId={clusterId} service={service} />;
}
