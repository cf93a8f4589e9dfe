// The calls of the console settings routes (contract: contract/settings.ts, the mirror in contract/reports.ts,
// the endpoint trust in contract/profiles.ts).
import type { MirrorSettingsRequest, SyslogTarget } from '../../../../preload/api';
import type { ApiCoreClass } from '../../api/core';

export const settingsCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    getSyslog = () => this.call('GET /api/v1/settings/syslog');
    setSyslog = (target: SyslogTarget) => this.call('PUT /api/v1/settings/syslog', { body: target });
    async clearSyslog(): Promise<void> {
      await this.call('DELETE /api/v1/settings/syslog');
    }
    testSyslog = () => this.call('POST /api/v1/settings/syslog/test');
    getDns = () => this.call('GET /api/v1/settings/dns');
    setDns = (servers: string[]) => this.call('PUT /api/v1/settings/dns', { body: { servers } });
    getMirror = () => this.call('GET /api/v1/settings/mirror');
    setMirror = (input: MirrorSettingsRequest) => this.call('PUT /api/v1/settings/mirror', { body: input });
    getEndpointTrust = () => this.call('GET /api/v1/settings/endpoint-trust');
    /** An empty bundle clears the list. */
    setEndpointTrust = (caPem: string) => this.call('PUT /api/v1/settings/endpoint-trust', { body: { ca_pem: caPem } });
  };
