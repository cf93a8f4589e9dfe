// The service checks an agent runs (liveness per instance, readiness per service, the functional test of
// smoke.run): their kinds, their params and the outcome the agent reports. Shared by the catalog validator and
// the agents, so a kind the catalog declares is one the agents can run, with the same params.
import { isPlainObject } from './payloads';

export const CHECK_ROLES = ['liveness', 'readiness', 'functional'] as const;
export type CheckRole = (typeof CHECK_ROLES)[number];

/** What a call may wait for at most, per network call (connect, request, delivery), unless params say less. */
export const DEFAULT_CHECK_TIMEOUT_MS = 5_000;
export const MAX_CHECK_TIMEOUT_MS = 60_000;

interface Common {
  /** Per network call; DEFAULT_CHECK_TIMEOUT_MS when absent. */
  timeout_ms?: number;
}
interface Local extends Common {
  /** The address the instance listens on, as seen from its agent; 127.0.0.1 when absent. */
  host?: string;
}

/**
 * How a check reaches a service that speaks TLS: files on the agent's host. The server is verified against
 * ca_file only (the service's CA bundle, never the system's); cert_file and key_file, together, are the client
 * certificate a service that demands one is shown (etcd with client-cert-auth). server_name is the name the
 * certificate must carry, when the address the check dials is not one of its names.
 */
export interface CheckTls {
  ca_file: string;
  cert_file?: string;
  key_file?: string;
  server_name?: string;
}
interface OverTls {
  /** Absent: the service is reached in plaintext (or, for an https URL, verified against the system's CAs). */
  tls?: CheckTls;
}

/** A certificate expiring in fewer days than this is a warning of tls.handshake (the manager's TLS probe's notice). */
export const TLS_WARN_DAYS = 14;

/** The peer's leaf certificate as a TLS handshake reports it, by the agents' checks and the manager's probe alike. */
export interface TlsCertificateEvidence {
  subject: string;
  issuer: string;
  serial: string;
  not_before: string;
  not_after: string;
  /** Whole days from the check's clock to not_after (negative once expired). */
  days_left: number;
  fingerprint256: string;
}

/** What a TLS handshake of a check saw: its outcome's evidence.tls lists one per endpoint, whatever the check's kind. */
export interface TlsHandshakeEvidence {
  /** host:port, and for a NATS server the protocol upgrade it took. */
  target: string;
  /** The name the certificate was checked against. */
  server_name: string;
  /** TLSv1.2, TLSv1.3; null when the handshake did not complete. */
  protocol: string | null;
  cipher: string | null;
  /** The peer's certificate, when one was received. */
  certificate: TlsCertificateEvidence | null;
  /** Whether a client certificate was presented. */
  client_certificate: boolean;
  /**
   * For a TLS 1.3 handshake the check passed: what settled the server's verdict on the client once the handshake
   * completed — its session ticket (accepted), or nothing within the quiet period (a server that sends no ticket).
   */
  settled_by?: 'session_ticket' | 'quiet_period';
  /** For starttls nats: what the server's INFO, read in clear before the upgrade, said. */
  nats?: { server_id: string | null; version: string | null; tls_required: boolean };
}

/** The verdicts of tls.handshake, as the manager's TLS probe names them. */
export const TLS_VERDICTS = ['ok', 'expiring', 'expired', 'untrusted', 'name_mismatch', 'refused', 'unreachable', 'not_tls'] as const;
export type TlsVerdict = (typeof TLS_VERDICTS)[number];

export interface CheckParamsByKind {
  tcp: Local & { port: number };
  /** With https, the server's certificate is verified against ca_file (a PEM on the agent's host), else the system's CAs. */
  /** ca_file is the older spelling of tls.ca_file, for a server that wants no client certificate; not both. */
  http: Local & OverTls & { port: number; path: string; expect_status?: number; scheme?: 'http' | 'https'; ca_file?: string };
  /** With tls, over https (etcd serves /health on its client port). */
  'etcd.health': Local & OverTls & { port: number };
  /** With tls, over https (nats-server's monitoring port uses the server's TLS block when it is an https_port). */
  'nats.healthz': Local & OverTls & { monitor_port: number };
  /** Client URLs of the members (http://host:port; https:// with tls). */
  'etcd.cluster': Common & OverTls & { endpoints: string[] };
  /** With tls, the monitoring port over https and the client port upgraded to TLS after the server's INFO. */
  'nats.jetstream': Local & OverTls & { monitor_port: number; client_port: number };
  'etcd.kv': Common & OverTls & { endpoints: string[] };
  /** Server URLs (nats://host:port); with jetstream, a file-backed stream is also written and read back. */
  'nats.pubsub': Common & OverTls & { endpoints: string[]; jetstream?: boolean };
  /** The exporter's metrics URL (http://host:port/metrics; https:// with tls). */
  'node_exporter.metrics': Common & OverTls & { url: string };
  /** The server's base URL (http://host:port). */
  'opa.policy': Common & { url: string };
  'openfga.check': Common & { url: string };
  /**
   * One TLS handshake with host:port, judged: trusted by ca_file, for server_name (else host), not expired, and
   * not within TLS_WARN_DAYS of expiry (a warning). starttls 'nats': the server's INFO is read in clear first,
   * as a NATS client does before it upgrades.
   */
  'tls.handshake': Common & CheckTls & { host: string; port: number; starttls?: 'nats' };
  /** A database server on host:port, as its check role (user) in its own database; with tls, only over TLS. */
  'postgresql.ping': Database;
  'postgresql.primary': Database;
  'postgresql.smoke': Database;
  'mariadb.ping': Database;
  'mariadb.primary': Database;
  'mariadb.smoke': Database;
}

/** ping: connect and SELECT 1; primary: accepts writes (not in recovery, not read-only); smoke: a table made, written, read, dropped. */
type Database = Local & OverTls & { port: number; user: string; database: string };

export type CheckKind = keyof CheckParamsByKind;
export type CheckParams<K extends CheckKind = CheckKind> = CheckParamsByKind[K];

/** The roles each kind may be declared for in the catalog. */
export const CHECK_KINDS: { readonly [K in CheckKind]: readonly CheckRole[] } = {
  tcp: ['liveness'],
  http: ['liveness', 'readiness'],
  'etcd.health': ['liveness'],
  'nats.healthz': ['liveness'],
  'etcd.cluster': ['readiness'],
  'nats.jetstream': ['readiness'],
  'etcd.kv': ['functional'],
  'nats.pubsub': ['functional'],
  'node_exporter.metrics': ['functional'],
  'opa.policy': ['functional'],
  'openfga.check': ['functional'],
  'tls.handshake': ['liveness', 'readiness'],
  'postgresql.ping': ['liveness'],
  'postgresql.primary': ['readiness'],
  'postgresql.smoke': ['functional'],
  'mariadb.ping': ['liveness'],
  'mariadb.primary': ['readiness'],
  'mariadb.smoke': ['functional'],
};

export function isCheckKind(kind: unknown): kind is CheckKind {
  return typeof kind === 'string' && Object.hasOwn(CHECK_KINDS, kind);
}

export type CheckStepStatus = 'pass' | 'fail' | 'skipped';
export interface CheckStep {
  name: string;
  status: CheckStepStatus;
  detail?: string;
}

/**
 * Stable codes of a failed check. The first group says how the service failed; `params_invalid` and
 * `kind_unknown` that the check could not be run as declared. A TLS failure is named by what was wrong
 * (tls_untrusted, tls_expired, tls_name_mismatch, tls_refused: the server refused the handshake, for instance
 * without a client certificate; not_tls: a plaintext endpoint); tls_invalid is any other certificate problem.
 */
export const CHECK_ERROR_CODES = [
  'unreachable',
  'timeout',
  'tls_invalid',
  'tls_untrusted',
  'tls_expired',
  'tls_name_mismatch',
  'tls_refused',
  'not_tls',
  'http_status',
  'unexpected_response',
  'unhealthy',
  'service_error',
  'no_leader',
  'leader_mismatch',
  'member_list_mismatch',
  'member_unhealthy',
  'jetstream_disabled',
  'value_mismatch',
  'delivery_failed',
  'metrics_missing',
  'metrics_insane',
  'decision_wrong',
  'not_primary',
  'cleanup_failed',
  'params_invalid',
  'kind_unknown',
] as const;
export type CheckErrorCode = (typeof CHECK_ERROR_CODES)[number];

export interface CheckOutcome {
  kind: string;
  status: 'pass' | 'fail';
  /** RFC 3339 UTC. */
  started_at: string;
  duration_ms: number;
  /** What was done, in words (English). */
  method: string;
  /** What was observed (values, errors), JSON. */
  evidence: Record<string, unknown>;
  /** The steps of a functional test, its clean-up steps included, in the order they ran. */
  steps?: CheckStep[];
  /** Present exactly when status is fail. */
  error?: { code: CheckErrorCode; message: string };
  /** Only with status pass: what passed but needs attention soon (a certificate under TLS_WARN_DAYS). */
  warning?: { code: CheckWarningCode; message: string };
}

export const CHECK_WARNING_CODES = ['tls_expiring'] as const;
export type CheckWarningCode = (typeof CHECK_WARNING_CODES)[number];

type FieldType = 'port' | 'string' | 'path' | 'file' | 'status' | 'scheme' | 'boolean' | 'timeout' | 'urls' | 'url' | 'tls' | 'starttls';
interface Field {
  type: FieldType;
  required: boolean;
}
const req = (type: FieldType): Field => ({ type, required: true });
const opt = (type: FieldType): Field => ({ type, required: false });
const LOCAL = { host: opt('string'), timeout_ms: opt('timeout') };
const TLS = { tls: opt('tls') };
const TLS_FILES = { ca_file: req('file'), cert_file: opt('file'), key_file: opt('file'), server_name: opt('string') };
const DATABASE = { ...LOCAL, ...TLS, port: req('port'), user: req('string'), database: req('string') };

/** The params of each kind, as data, so the catalog validator and the agent judge them by the same table. */
export const CHECK_PARAM_FIELDS: { readonly [K in CheckKind]: { readonly [F in keyof Required<CheckParamsByKind[K]>]: Field } } = {
  tcp: { ...LOCAL, port: req('port') },
  http: {
    ...LOCAL,
    ...TLS,
    port: req('port'),
    path: req('path'),
    expect_status: opt('status'),
    scheme: opt('scheme'),
    ca_file: opt('file'),
  },
  'etcd.health': { ...LOCAL, ...TLS, port: req('port') },
  'nats.healthz': { ...LOCAL, ...TLS, monitor_port: req('port') },
  'etcd.cluster': { ...TLS, endpoints: req('urls'), timeout_ms: opt('timeout') },
  'nats.jetstream': { ...LOCAL, ...TLS, monitor_port: req('port'), client_port: req('port') },
  'etcd.kv': { ...TLS, endpoints: req('urls'), timeout_ms: opt('timeout') },
  'nats.pubsub': { ...TLS, endpoints: req('urls'), jetstream: opt('boolean'), timeout_ms: opt('timeout') },
  'node_exporter.metrics': { ...TLS, url: req('url'), timeout_ms: opt('timeout') },
  'opa.policy': { url: req('url'), timeout_ms: opt('timeout') },
  'openfga.check': { url: req('url'), timeout_ms: opt('timeout') },
  'tls.handshake': { host: req('string'), port: req('port'), ...TLS_FILES, starttls: opt('starttls'), timeout_ms: opt('timeout') },
  'postgresql.ping': DATABASE,
  'postgresql.primary': DATABASE,
  'postgresql.smoke': DATABASE,
  'mariadb.ping': DATABASE,
  'mariadb.primary': DATABASE,
  'mariadb.smoke': DATABASE,
};

const isUrl = (v: unknown): boolean => {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.hostname !== '' && u.username === '' && u.password === '';
  } catch {
    return false;
  }
};

/** The problems of a tls block: its own fields judged by the same table, and a client key only with its certificate. */
function tlsProblems(v: unknown, name: string): string[] {
  if (!isPlainObject(v)) return [`${name} must be an object {ca_file, cert_file?, key_file?, server_name?}`];
  return [...fieldsProblems(TLS_FILES, v, name, `${name}.`), ...pairProblems(v, `${name}.`)];
}

const pairProblems = (v: Record<string, unknown>, prefix = ''): string[] =>
  (v.cert_file === undefined) !== (v.key_file === undefined) ? [`${prefix}cert_file and ${prefix}key_file go together`] : [];

function fieldsProblems(fields: Readonly<Record<string, Field>>, params: Record<string, unknown>, of: string, prefix = ''): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(params)) if (!Object.hasOwn(fields, name)) problems.push(`${prefix}${name} is not a param of ${of}`);
  for (const [name, field] of Object.entries(fields)) {
    const v = params[name];
    if (v === undefined) {
      if (field.required) problems.push(`${prefix}${name} is required`);
      continue;
    }
    if (field.type === 'tls') {
      problems.push(...tlsProblems(v, `${prefix}${name}`));
      continue;
    }
    const want = fieldProblem(field.type, v);
    if (want) problems.push(`${prefix}${name} must be ${want}`);
  }
  return problems;
}

/** What the fields cannot say alone: a tls block needs TLS URLs, and http takes its CA one way only. */
function crossProblems(kind: CheckKind, params: Record<string, unknown>): string[] {
  if (params.tls === undefined) return [];
  const problems: string[] = [];
  if (kind === 'http') {
    if (params.ca_file !== undefined) problems.push('ca_file and tls both given: the CA goes in tls.ca_file');
    if (params.scheme !== 'https') problems.push('tls needs scheme https');
  }
  const urls = [params.url, ...(Array.isArray(params.endpoints) ? params.endpoints : [])].filter((u) => typeof u === 'string');
  if (kind === 'etcd.cluster' || kind === 'etcd.kv' || kind === 'node_exporter.metrics') {
    const plain = urls.filter((u) => !u.startsWith('https://'));
    if (plain.length > 0) problems.push(`with tls, every URL is https:// (not ${plain.join(', ')})`);
  }
  if (kind === 'nats.pubsub') {
    const other = urls.filter((u) => !/^(nats|tls):\/\//.test(u));
    if (other.length > 0) problems.push(`with tls, every URL is nats:// or tls:// (not ${other.join(', ')})`);
  }
  return problems;
}

function fieldProblem(type: Exclude<FieldType, 'tls'>, v: unknown): string | null {
  switch (type) {
    case 'port':
      return Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535 ? null : 'a port number 1-65535';
    case 'string':
      return typeof v === 'string' && v.length > 0 && v.length <= 253 ? null : 'a non-empty string';
    case 'path':
      return typeof v === 'string' && v.startsWith('/') && !/\s/.test(v) ? null : 'a path starting with /';
    case 'file':
      return typeof v === 'string' && v.startsWith('/') && !v.split('/').includes('..') ? null : 'an absolute file path';
    case 'status':
      return Number.isInteger(v) && (v as number) >= 100 && (v as number) <= 599 ? null : 'an HTTP status 100-599';
    case 'scheme':
      return v === 'http' || v === 'https' ? null : 'http or https';
    case 'boolean':
      return typeof v === 'boolean' ? null : 'a boolean';
    case 'timeout':
      return Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_CHECK_TIMEOUT_MS
        ? null
        : `milliseconds 1-${MAX_CHECK_TIMEOUT_MS}`;
    case 'url':
      return isUrl(v) ? null : 'an absolute URL without credentials';
    case 'urls':
      return Array.isArray(v) && v.length > 0 && v.length <= 16 && v.every(isUrl) ? null : '1 to 16 absolute URLs without credentials';
    case 'starttls':
      return v === 'nats' ? null : 'nats (the only protocol upgraded after a greeting in clear)';
  }
}

export type CheckParamsResult<K extends CheckKind = CheckKind> =
  { ok: true; kind: K; params: CheckParams<K> } | { ok: false; code: 'kind_unknown' | 'params_invalid'; message: string };

/** Judges a kind and its params; unknown fields are refused so a typo in the catalog is not silently ignored. */
export function checkParams(kind: unknown, params: unknown): CheckParamsResult {
  if (!isCheckKind(kind)) return { ok: false, code: 'kind_unknown', message: `unknown check kind ${JSON.stringify(kind)}` };
  if (!isPlainObject(params)) return { ok: false, code: 'params_invalid', message: `${kind}: params must be an object` };
  const problems = fieldsProblems(CHECK_PARAM_FIELDS[kind], params, kind);
  if (kind === 'tls.handshake') problems.push(...pairProblems(params));
  if (problems.length === 0) problems.push(...crossProblems(kind, params));
  if (problems.length > 0) return { ok: false, code: 'params_invalid', message: `${kind}: ${problems.join('; ')}` };
  return { ok: true, kind, params: params as unknown as CheckParams };
}

/** The kinds that may be declared for a role, for the catalog's schema. */
export function kindsFor(role: CheckRole): [CheckKind, ...CheckKind[]] {
  const kinds = (Object.keys(CHECK_KINDS) as CheckKind[]).filter((k) => CHECK_KINDS[k].includes(role));
  return kinds as [CheckKind, ...CheckKind[]];
}

/** The names of a kind's params, required and optional, read off CHECK_PARAM_FIELDS. */
export function paramNames(kind: CheckKind): { required: string[]; optional: string[] } {
  const fields = Object.entries(CHECK_PARAM_FIELDS[kind]) as [string, Field][];
  return {
    required: fields.filter(([, f]) => f.required).map(([n]) => n),
    optional: fields.filter(([, f]) => !f.required).map(([n]) => n),
  };
}
