// The remote audit target (setting `syslog_target`): where the forwarder sends every audit row.
import type { Tables } from '../domain-tables';
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { ValidationError } from '../errors';
import type { Store } from '../store/store';
import { HOST_NAME } from '../clusters/names';
import type { SyslogTarget, SyslogTargetInput } from '../../contract/settings';
import { targetLabel } from './syslog-sender';

export const SYSLOG_TARGET_KEY = 'syslog_target';

/** Judges what the target's schema leaves to the manager: the host's form and the CA's PEM. */
export function checkSyslogTarget(input: SyslogTargetInput): SyslogTarget {
  const { host, port, transport, ca_pem } = input;
  if (!(isIP(host) || HOST_NAME.test(host)))
    throw new ValidationError('host', 'host must be a host name or an IP address, e.g. siem.bank.internal');
  if (ca_pem !== undefined && ca_pem !== null && ca_pem !== '') {
    if (transport !== 'tls') throw new ValidationError('ca_pem', 'ca_pem is for the tls transport only');
    try {
      new X509Certificate(ca_pem);
    } catch {
      throw new ValidationError('ca_pem', 'ca_pem is the PEM text of the CA certificate that signs the syslog receiver');
    }
    return { host, port, transport, ca_pem };
  }
  return { host, port, transport };
}

export function syslogTarget(tables: Tables<'settings'>): SyslogTarget | null {
  return tables.settings.getJson<SyslogTarget>(SYSLOG_TARGET_KEY);
}

export function setSyslogTarget(store: Store, tables: Tables<'settings'>, input: SyslogTargetInput, actor: string): SyslogTarget {
  const target = checkSyslogTarget(input);
  store.tx(() => {
    tables.settings.setJson(SYSLOG_TARGET_KEY, target);
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
export function clearSyslogTarget(store: Store, tables: Tables<'settings'>, actor: string): void {
  store.tx(() => {
    const previous = syslogTarget(tables);
    tables.settings.setJson(SYSLOG_TARGET_KEY, null);
    store.audit.append({ actor, action: 'settings.syslog', target: previous ? targetLabel(previous) : null, details: { cleared: true } });
  });
}
