// The calls of the cluster routes and of the import path (contract: contract/clusters.ts,
// contract/kubernetes.ts): records, agent status, import RBAC, registration, inventory, agent identity and
// manifests.
import type { AgentIdentityRequest, ClusterCreate, ClusterListQuery, ClusterPatch, RegistrationRequest } from '../../../../preload/api';
import type { ApiCoreClass } from '../../api/core';

export const clusterCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    /** The whole list without a query; a page with `limit`, the rest of the list with `after` alone. */
    listClusters = (query?: ClusterListQuery) => this.call('GET /api/v1/clusters', query ? { query } : {});
    /** The list asked for before the session is confirmed (see callAhead). */
    listClustersAhead = (query: ClusterListQuery) => this.callAhead('GET /api/v1/clusters', { query });
    createCluster = (input: ClusterCreate) => this.call('POST /api/v1/clusters', { body: input });
    getCluster = (id: string) => this.call('GET /api/v1/clusters/:id', { params: { id } });
    updateCluster = (id: string, patch: ClusterPatch) => this.call('PATCH /api/v1/clusters/:id', { params: { id }, body: patch });
    async deleteCluster(id: string, approvalId?: string): Promise<void> {
      await this.call('DELETE /api/v1/clusters/:id', { params: { id }, query: approvalId ? { approval_id: approvalId } : {} });
    }
    getClusterView = (id: string) => this.call('GET /api/v1/clusters/:id', { params: { id } });
    agentStatus = (id: string) => this.call('GET /api/v1/clusters/:id/agent', { params: { id } });

    importRbac = (id: string, namespace: string) =>
      this.callText('GET /api/v1/clusters/:id/kubernetes/import-rbac', { params: { id }, query: { namespace } });
    register = (id: string, req: RegistrationRequest) =>
      this.call('POST /api/v1/clusters/:id/kubernetes/registration', { params: { id }, body: req });
    getInventory = (id: string) => this.call('GET /api/v1/clusters/:id/inventory', { params: { id } });
    refreshInventory = (id: string) => this.call('POST /api/v1/clusters/:id/inventory/refresh', { params: { id } });
    requestInventoryReport = (id: string) => this.call('POST /api/v1/clusters/:id/inventory/report', { params: { id } });
    issueAgentIdentity = (id: string, req: AgentIdentityRequest) =>
      this.call('POST /api/v1/clusters/:id/kubernetes/agent', { params: { id }, body: req });
    agentManifests = (id: string, image: string) =>
      this.callText('GET /api/v1/clusters/:id/kubernetes/agent/manifests', { params: { id }, query: { image } });
  };
