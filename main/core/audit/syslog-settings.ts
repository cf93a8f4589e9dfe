// The remote audit target (setting `syslog_target`): where the forwarder sends every audit row.
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { ValidationError } from '../errors';
import type { Store } from '../store/store';
import { HOST_NAME } from '../clusters/names';
import { targetLabel, type SyslogTarget } from './syslog-sender';

export const SYSLOG_TARGET_KEY = 'syslog_target';

export function checkSyslogTarget(input: unknown): SyslogTarget {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new ValidationError('host', 'the syslog target is { host, port, transport }');
  const { host, port, transport, ca_pem } = input as Record<string, unknown>;
  if (typeof host !== 'string' || !(isIP(host) || HOST_NAME.test(host)))
    throw new ValidationError('host', 'host must be a host name or an IP address, e.g. siem.bank.internal');
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    throw new ValidationError('port', 'port must be an integer from 1 to 65535 (syslog is 514, or 6514 with TLS)');
  if (transport !== 'tls' && transport !== 'tcp' && transport !== 'udp')
    throw new ValidationError('transport', 'transport must be "tls" (RFC 5425), "tcp" or "udp"');
  if (ca_pem !== undefined && ca_pem !== null && ca_pem !== '') {
    if (transport !== 'tls') throw new ValidationError('ca_pem', 'ca_pem is for the tls transport only');
    try {
      if (typeof ca_pem !== 'string') throw new Error('not text');
      new X509Certificate(ca_pem);
    } catch {
      throw new ValidationError('ca_pem', 'ca_pem is the PEM text of the CA certificate that signs the syslog receiver');
    }
    return { host, port, transport, ca_pem };
  }
  return { host, port, transport };
}

export function syslogTarget(store: Store): SyslogTarget | null {
  return store.settings.getJson<SyslogTarget>(SYSLOG_TARGET_KEY);
}

export function setSyslogTarget(store: Store, input: unknown, actor: string): SyslogTarget {
  const target = checkSyslogTarget(input);
  store.tx(() => {
    store.settings.setJson(SYSLOG_TARGET_KEY, target);
    store.audit.append({
      actor,
      action: 'settings.syslog',
      target: targetLabel(target),
      details: { host: target.host, port: target.port, transport: target.transport, ca_pem: target.ca_pem ? 'set' : 'none' },
    });
  });
  return target;
}

/** Stops the remote audit; the forwarder's cursor stays, so setting the same target again resumes where it was. */
export function clearSyslogTarget(store: Store, actor: string): void {
  store.tx(() => {
    const previous = syslogTarget(store);
    store.settings.setJson(SYSLOG_TARGET_KEY, null);
    store.audit.append({ actor, action: 'settings.syslog', target: previous ? targetLabel(previous) : null, details: { cleared: true } });
  });
}
