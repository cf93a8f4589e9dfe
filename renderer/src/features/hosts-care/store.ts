// The stores of the hosts-cluster tabs that look after installed services: backup sets (Backups tab), drift
// findings (Drift tab) and support archives (Support tab), each a view of the open cluster kept live by its events.
import type { DriftView, ServiceBackupSet, SupportPreviewItem } from '../../../../preload/api';
import { createClusterViewStore } from '../cluster/clusterView';
import { itemsOf } from '../../stores/list';
import type { LiveDeps } from '../../stores/live';

export const createServiceBackupsStore = (deps: LiveDeps) =>
  createClusterViewStore<ServiceBackupSet[], 'backUp' | 'restore'>(deps, {
    load: async (client, id) => itemsOf(await client.listServiceBackups(id)),
    // A set moves on as its backup operations end; a restore is an operation too.
    events: ['backup.changed', 'service.changed'],
    writes: ['backUp', 'restore'],
  });

export const createDriftStore = (deps: LiveDeps) =>
  createClusterViewStore<DriftView, 'scan' | 'mode' | 'realign'>(deps, {
    load: (client, id) => client.getDrift(id),
    events: ['drift.changed'],
    writes: ['scan', 'mode', 'realign'],
  });

export interface SupportView {
  preview: SupportPreviewItem[];
  archives: { id: string; bytes: number; created_at: string }[];
}

export const createSupportStore = (deps: LiveDeps) =>
  createClusterViewStore<SupportView, 'create'>(deps, {
    load: async (client, id) => {
      const [preview, archives] = await Promise.all([client.supportPreview(id), client.listSupportArchives(id)]);
      return { preview: itemsOf(preview), archives: itemsOf(archives) };
    },
    events: ['support.changed'],
    writes: ['create'],
  });
