// The calls of the console settings routes (contract: contract/settings.ts, the mirror in contract/reports.ts,
// the endpoint trust in contract/profiles.ts).
import type { MirrorSettingsRequest, SyslogTarget } from '../../../preload/api';
import type { ApiCoreClass } from './core';

export const settingsCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    getSyslog() {
      return this.call('GET /api/v1/settings/syslog');
    }
    setSyslog(target: SyslogTarget) {
      return this.call('PUT /api/v1/settings/syslog', { body: target });
    }
    async clearSyslog(): Promise<void> {
      await this.call('DELETE /api/v1/settings/syslog');
    }
    testSyslog() {
      return this.call('POST /api/v1/settings/syslog/test');
    }
    getDns() {
      return this.call('GET /api/v1/settings/dns');
    }
    setDns(servers: string[]) {
      return this.call('PUT /api/v1/settings/dns', { body: { servers } });
    }
    getMirror() {
      return this.call('GET /api/v1/settings/mirror');
    }
    setMirror(input: MirrorSettingsRequest) {
      return this.call('PUT /api/v1/settings/mirror', { body: input });
    }
    getEndpointTrust() {
      return this.call('GET /api/v1/settings/endpoint-trust');
    }
    /** An empty bundle clears the list. */
    setEndpointTrust(caPem: string) {
      return this.call('PUT /api/v1/settings/endpoint-trust', { body: { ca_pem: caPem } });
    }
  };
