// The console's settings as one service: the remote audit target (with its forwarder's state and a live test),
// the DNS servers the preflight asks, and the CAs trusted for the services' TLS endpoints. Each change is
// checked, stored and audited by the module that owns the setting; the API, IPC and the CLI call this.
import type { Clock } from '../clock';
import { CoreError } from '../errors';
import type { Tables } from '../domain-tables';
import type { Store } from '../store/store';
import type {
  DnsSettings,
  SyslogForwarderStatus,
  SyslogProbeResult,
  SyslogSettings,
  SyslogTarget,
  SyslogTargetInput,
} from '../../contract/settings';
import { probeSyslog } from '../audit/syslog-sender';
import { checkSyslogTarget, clearSyslogTarget, setSyslogTarget, syslogTarget } from '../audit/syslog-settings';
import { dnsServers, setDnsServers } from '../checks/dns-settings';
import { endpointTrust, setEndpointTrust } from '../profiles/endpoint-trust';

export interface ConsoleSettingsDeps {
  store: Store;
  tables: Tables<'settings'>;
  clock: Clock;
  /** The forwarder of this process (null where none runs). */
  syslogStatus: () => SyslogForwarderStatus | null;
}

/** How long a test message may take to reach the syslog target. */
export const SYSLOG_TEST_TIMEOUT_MS = 5000;

export class ConsoleSettings {
  constructor(private readonly d: ConsoleSettingsDeps) {}

  syslog(): SyslogSettings {
    return { target: syslogTarget(this.d.tables), forwarder: this.d.syslogStatus() };
  }

  setSyslog(input: SyslogTargetInput, actor: string): SyslogTarget {
    return setSyslogTarget(this.d.store, this.d.tables, input, actor);
  }

  clearSyslog(actor: string): void {
    clearSyslogTarget(this.d.store, this.d.tables, actor);
  }

  /** Sends one test message: to the target given (checked, not saved), else to the saved one. */
  async testSyslog(target?: SyslogTargetInput): Promise<SyslogProbeResult> {
    const t: SyslogTarget | null = target === undefined ? syslogTarget(this.d.tables) : checkSyslogTarget(target);
    if (!t)
      throw new CoreError(
        'syslog_not_configured',
        'no syslog target is set; PUT /api/v1/settings/syslog first, or send { host, port, transport } to test one',
      );
    return probeSyslog(t, SYSLOG_TEST_TIMEOUT_MS, this.d.clock.now());
  }

  dnsServers(): string[] {
    return dnsServers(this.d.tables);
  }

  setDnsServers(input: DnsSettings['servers'], actor: string): string[] {
    return setDnsServers(this.d.store, this.d.tables, input, actor);
  }

  /** The PEM bundle of CAs trusted for the services' TLS endpoints ('' when none). */
  endpointTrust(): string {
    return endpointTrust(this.d.tables).join('\n');
  }

  setEndpointTrust(input: string, actor: string): string {
    return setEndpointTrust(this.d.store, this.d.tables, input, actor).join('\n');
  }
}
