// Audit rows as RFC 5424 syslog messages, for the remote audit the banking-secure profile requires.
// Facility authpriv: the audit records logins, accounts, keys and approvals, and receivers file authpriv
// apart from the general log (auth.log / secure, readable by root only), which is where this belongs.
import { hostname as osHostname } from 'node:os';
import type { AuditRow } from '../store/audit-log';

export const FACILITY_AUTHPRIV = 10;
export const SEVERITY_WARNING = 4;
export const SEVERITY_NOTICE = 5;
export const APP_NAME = 'navin-manager';
/** The SD-ID's private enterprise number: 32473 is the one RFC 5612 reserves for documentation and examples. */
export const SD_ID = 'navin@32473';
/** Receivers commonly cut longer messages (rsyslog's default maximum is 8 KiB). */
export const MAX_MESSAGE_BYTES = 8192;

const BOM = '\uFEFF';

export interface SyslogFields {
  severity: number;
  timestamp: string;
  hostname: string;
  msgid: string;
  procid?: string;
  /** SD-PARAMs in order; null values are left out. */
  params: [string, string | number | null][];
  msg: string;
}

/** Keeps PRINTUSASCII (33..126) only, cut to max: the header fields allow nothing else. */
export function headerField(value: string, max: number): string {
  const printable = value.replace(/[^\x21-\x7e]/g, '_').slice(0, max);
  return printable.length > 0 ? printable : '-';
}

/** PARAM-VALUE escaping of RFC 5424 section 6.3.3: `"`, `\` and `]` take a backslash. */
export const escapeParamValue = (value: string): string => value.replace(/["\\\]]/g, (c) => `\\${c}`);

export function formatSyslog(f: SyslogFields, facility = FACILITY_AUTHPRIV): string {
  const sd = `[${SD_ID}${f.params
    .filter(([, v]) => v !== null)
    .map(([k, v]) => ` ${k}="${escapeParamValue(String(v))}"`)
    .join('')}]`;
  const header = [
    `<${facility * 8 + f.severity}>1`,
    f.timestamp,
    headerField(f.hostname, 255),
    APP_NAME,
    headerField(f.procid ?? String(process.pid), 128),
    headerField(f.msgid, 32),
  ].join(' ');
  return `${header} ${sd} ${BOM}${f.msg}`;
}

/** Refusals and failed logins are what a SOC watches for. */
export function auditSeverity(action: string): number {
  return /(_failed|_refused|_denied|_rejected|\.refused|\.denied)$/.test(action) ? SEVERITY_WARNING : SEVERITY_NOTICE;
}

export interface AuditFormatOptions {
  hostname?: string;
  facility?: number;
  maxBytes?: number;
}

/** One audit row as one message: the chain fields in structured data, the details as JSON in MSG. */
export function formatAuditRow(row: AuditRow, opts: AuditFormatOptions = {}): string {
  const fields = (msg: string): SyslogFields => ({
    severity: auditSeverity(row.action),
    timestamp: row.at,
    hostname: opts.hostname ?? osHostname(),
    msgid: row.action,
    params: [
      ['seq', row.seq],
      ['actor', row.actor],
      ['cluster', row.cluster_id],
      ['target', row.target],
      ['hash', row.hash],
    ],
    msg,
  });
  const full = formatSyslog(fields(JSON.stringify(row.details)), opts.facility);
  const bytes = Buffer.byteLength(full, 'utf8');
  if (bytes <= (opts.maxBytes ?? MAX_MESSAGE_BYTES)) return full;
  // The seq and hash still go out, so the receiver knows which row to fetch from the console's own log.
  return formatSyslog(
    fields(JSON.stringify({ truncated: true, details_bytes: Buffer.byteLength(JSON.stringify(row.details), 'utf8') })),
    opts.facility,
  );
}
