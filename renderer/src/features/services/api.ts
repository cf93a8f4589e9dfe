// The calls of the Services tab (contract: contract/services.ts): the catalog services installed on a hosts
// cluster, installing one, its configuration and actions, and its operations (signed plans, task by task).
import type { ServiceAction, ServiceConfigure, ServiceInstall } from '../../../../preload/api';
import type { ApiCoreClass } from '../../api/core';

export const serviceCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    listServices = (clusterId: string) => this.call('GET /api/v1/clusters/:id/services', { params: { id: clusterId } });
    installService = (clusterId: string, install: ServiceInstall) =>
      this.call('POST /api/v1/clusters/:id/services', { params: { id: clusterId }, body: install });
    getService = (clusterId: string, service: string) =>
      this.call('GET /api/v1/clusters/:id/services/:service', { params: { id: clusterId, service } });
    configureService = (clusterId: string, service: string, body: ServiceConfigure) =>
      this.call('PUT /api/v1/clusters/:id/services/:service/config', { params: { id: clusterId, service }, body });
    serviceAction(clusterId: string, service: string, action: ServiceAction, approvalId?: string) {
      return this.call('POST /api/v1/clusters/:id/services/:service/actions', {
        params: { id: clusterId, service },
        body: approvalId ? { action, approval_id: approvalId } : { action },
      });
    }
    serviceOperations = (clusterId: string, service: string, limit?: number) =>
      this.call('GET /api/v1/clusters/:id/services/:service/operations', { params: { id: clusterId, service }, query: { limit } });
    getOperation = (id: string) => this.call('GET /api/v1/operations/:id', { params: { id } });
  };
