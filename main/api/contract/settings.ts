// Console settings: the remote audit target (syslog) with its forwarder's state and a live test, and the DNS
// servers the preflight asks.

export type SyslogTransport = 'tls' | 'tcp' | 'udp';

export interface SyslogTarget {
  host: string;
  port: number;
  transport: SyslogTransport;
  /** For tls: the CA that signs the receiver's certificate (the system store when absent). */
  ca_pem?: string;
}

export interface SyslogForwarderStatus {
  target: string | null;
  running: boolean;
  forwarded_seq: number;
  pending: number;
  last_success_at: string | null;
  last_error: { code: string; message: string; at: string } | null;
  consecutive_failures: number;
  /** How long until the next attempt after a failure; null when not backing off. */
  retry_in_ms: number | null;
}

/** The configured target (null: none) and what this process's forwarder reports (null where none runs). */
export interface SyslogSettings {
  target: SyslogTarget | null;
  forwarder: SyslogForwarderStatus | null;
}

export interface SyslogProbeResult {
  reachable: boolean;
  transport: SyslogTransport;
  target: string;
  method: string;
  error_code: string | null;
  message: string;
  duration_ms: number;
}

export interface DnsSettings {
  servers: string[];
}

export interface SettingsRoutes {
  'GET /api/v1/settings/syslog': { result: SyslogSettings };
  'PUT /api/v1/settings/syslog': { body: SyslogTarget; result: { target: SyslogTarget } };
  'DELETE /api/v1/settings/syslog': { result: null };
  /** A body tests a target before it is saved; without one, the saved target is tested. */
  'POST /api/v1/settings/syslog/test': { body?: SyslogTarget; result: SyslogProbeResult };
  'GET /api/v1/settings/dns': { result: DnsSettings };
  'PUT /api/v1/settings/dns': { body: DnsSettings; result: DnsSettings };
}
