// The calls of the hosts-cluster tabs that look after installed services (contracts: service-backups.ts, drift.ts,
// support.ts, services.ts): backup sets and restores, drift findings, support archives, upgrades and rollbacks.
import type { DriftMode } from '../../../../preload/api';
import type { ApiCoreClass } from '../../api/core';

export const hostsCareCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    listServiceBackups = (clusterId: string) => this.call('GET /api/v1/clusters/:id/service-backups', { params: { id: clusterId } });
    /** `approvalId`: where the profile wants four eyes and a backup stops a server (NATS). */
    backUpServices = (clusterId: string, services?: string[], approvalId?: string) =>
      this.call('POST /api/v1/clusters/:id/service-backups', {
        params: { id: clusterId },
        body: { ...(services ? { services } : {}), ...(approvalId ? { approval_id: approvalId } : {}) },
      });
    restoreServiceBackup = (clusterId: string, setId: string, service: string) =>
      this.call('POST /api/v1/clusters/:id/service-backups/:set/restore', { params: { id: clusterId, set: setId }, body: { service } });

    getDrift = (clusterId: string) => this.call('GET /api/v1/clusters/:id/drift', { params: { id: clusterId } });
    scanDrift = (clusterId: string) => this.call('POST /api/v1/clusters/:id/drift/scan', { params: { id: clusterId } });
    setDriftMode = (clusterId: string, mode: DriftMode) =>
      this.call('PUT /api/v1/clusters/:id/drift/mode', { params: { id: clusterId }, body: { mode } });
    realignFinding = (findingId: string) => this.call('POST /api/v1/drift/findings/:id/realign', { params: { id: findingId }, body: {} });

    supportPreview = (clusterId: string) => this.call('GET /api/v1/clusters/:id/support/preview', { params: { id: clusterId } });
    listSupportArchives = (clusterId: string) => this.call('GET /api/v1/clusters/:id/support', { params: { id: clusterId } });
    createSupportArchive = (clusterId: string) => this.call('POST /api/v1/clusters/:id/support', { params: { id: clusterId } });

    upgradeInfo = (clusterId: string, service: string, to: string) =>
      this.call('GET /api/v1/clusters/:id/services/:service/upgrade', { params: { id: clusterId, service }, query: { to } });
    upgradeService = (clusterId: string, service: string, version: string) =>
      this.call('POST /api/v1/clusters/:id/services/:service/upgrade', { params: { id: clusterId, service }, body: { version } });
    rollbackService = (clusterId: string, service: string) =>
      this.call('POST /api/v1/clusters/:id/services/:service/rollback', { params: { id: clusterId, service }, body: {} });
  };
