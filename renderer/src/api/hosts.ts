// The console API of hosts clusters, on the shared client: hosts, their node agent identities, facts reports.
import type { CommandView, HostIdentity, HostView } from '../../../preload/api';
import type { ApiClient } from './client';

export interface HostsApi {
  list(clusterId: string): Promise<HostView[]>;
  add(clusterId: string, host: { name: string; address: string }): Promise<HostView>;
  remove(hostId: string): Promise<void>;
  issueIdentity(hostId: string, req: { gateway_url: string; server_name?: string }): Promise<HostIdentity>;
  reportFacts(hostId: string): Promise<CommandView>;
}

export function hostsApi(client: ApiClient): HostsApi {
  const cluster = (id: string): string => `/api/v1/clusters/${encodeURIComponent(id)}`;
  const host = (id: string): string => `/api/v1/hosts/${encodeURIComponent(id)}`;
  return {
    list: async (clusterId) => (await client.request<{ items: HostView[] }>('GET', `${cluster(clusterId)}/hosts`)).items,
    add: (clusterId, h) => client.request('POST', `${cluster(clusterId)}/hosts`, h),
    remove: async (hostId) => {
      await client.request('DELETE', host(hostId));
    },
    issueIdentity: (hostId, req) => client.request('POST', `${host(hostId)}/agent`, req),
    reportFacts: (hostId) => client.request('POST', `${host(hostId)}/facts/report`),
  };
}
