// Support: the cluster's redacted support archives (they hold every service's facts, configurations and journals,
// this one's included), with their preview and Create archive.
import type { ReactElement } from 'react';
import { SupportTab } from '../hosts-care/SupportTab';

export function SheetSupport({ clusterId }: { clusterId: string }): ReactElement {
  return <SupportTab clusterId={clusterId} />;
}
