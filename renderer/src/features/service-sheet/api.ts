// The calls of the component sheet (contract: contract/service-sheet.ts): a service as its agents observed it, a
// refresh that asks the hosts to report now, its host figures over time, its journals, its configuration versions.
import type { ApiCoreClass } from '../../api/core';

export const sheetCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    getServiceSheet = (clusterId: string, service: string) =>
      this.call('GET /api/v1/clusters/:id/services/:service/sheet', { params: { id: clusterId, service } });
    refreshServiceSheet = (clusterId: string, service: string) =>
      this.call('POST /api/v1/clusters/:id/services/:service/sheet/refresh', { params: { id: clusterId, service } });
    serviceMetrics = (clusterId: string, service: string, minutes: number) =>
      this.call('GET /api/v1/clusters/:id/services/:service/metrics', { params: { id: clusterId, service }, query: { minutes } });
    serviceLogs = (clusterId: string, service: string, lines: number) =>
      this.call('POST /api/v1/clusters/:id/services/:service/logs', { params: { id: clusterId, service }, body: { lines } });
    serviceConfigVersions = (clusterId: string, service: string) =>
      this.call('GET /api/v1/clusters/:id/services/:service/config-versions', { params: { id: clusterId, service } });
  };
