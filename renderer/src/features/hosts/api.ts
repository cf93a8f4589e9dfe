// The calls of the Hosts tab (contract: contract/hosts.ts): the hosts of a hosts cluster, a host's node agent
// identity, facts reports, raw plans and a plan task by task.
import type { HostAgentRequest, HostCreate, PlanRequest } from '../../../../preload/api';
import type { ApiCoreClass } from '../../api/core';

export const hostCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    listHosts = (clusterId: string) => this.call('GET /api/v1/clusters/:id/hosts', { params: { id: clusterId } });
    addHost = (clusterId: string, host: HostCreate) =>
      this.call('POST /api/v1/clusters/:id/hosts', { params: { id: clusterId }, body: host });
    getHost = (hostId: string) => this.call('GET /api/v1/hosts/:host_id', { params: { host_id: hostId } });
    async removeHost(hostId: string, approvalId?: string): Promise<void> {
      await this.call('DELETE /api/v1/hosts/:host_id', {
        params: { host_id: hostId },
        query: approvalId ? { approval_id: approvalId } : {},
      });
    }
    issueHostIdentity = (hostId: string, req: HostAgentRequest) =>
      this.call('POST /api/v1/hosts/:host_id/agent', { params: { host_id: hostId }, body: req });
    requestFactsReport = (hostId: string) => this.call('POST /api/v1/hosts/:host_id/facts/report', { params: { host_id: hostId } });
    sendPlan = (hostId: string, plan: PlanRequest) =>
      this.call('POST /api/v1/hosts/:host_id/plans', { params: { host_id: hostId }, body: plan });
    hostCommands = (hostId: string, limit?: number) =>
      this.call('GET /api/v1/hosts/:host_id/commands', { params: { host_id: hostId }, query: { limit } });
    getPlan = (commandId: string) => this.call('GET /api/v1/commands/:id/plan', { params: { id: commandId } });
  };
