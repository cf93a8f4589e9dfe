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

export interface CheckParamsByKind {
  tcp: Local & { port: number };
  /** With https, the server's certificate is verified against ca_file (a PEM on the agent's host), else the system's CAs. */
  http: Local & { port: number; path: string; expect_status?: number; scheme?: 'http' | 'https'; ca_file?: string };
  'etcd.health': Local & { port: number };
  'nats.healthz': Local & { monitor_port: number };
  /** Client URLs of the members (http://host:port). */
  'etcd.cluster': Common & { endpoints: string[] };
  'nats.jetstream': Local & { monitor_port: number; client_port: number };
  'etcd.kv': Common & { endpoints: string[] };
  /** Server URLs (nats://host:port); with jetstream, a file-backed stream is also written and read back. */
  'nats.pubsub': Common & { endpoints: string[]; jetstream?: boolean };
  /** The exporter's metrics URL (http://host:port/metrics). */
  'node_exporter.metrics': Common & { url: string };
  /** The server's base URL (http://host:port). */
  'opa.policy': Common & { url: string };
  'openfga.check': Common & { url: string };
}

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
 * `kind_unknown` that the check could not be run as declared.
 */
export const CHECK_ERROR_CODES = [
  'unreachable',
  'timeout',
  'tls_invalid',
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
}

type FieldType = 'port' | 'string' | 'path' | 'file' | 'status' | 'scheme' | 'boolean' | 'timeout' | 'urls' | 'url';
interface Field {
  type: FieldType;
  required: boolean;
}
const req = (type: FieldType): Field => ({ type, required: true });
const opt = (type: FieldType): Field => ({ type, required: false });
const LOCAL = { host: opt('string'), timeout_ms: opt('timeout') };

/** The params of each kind, as data, so the catalog validator and the agent judge them by the same table. */
export const CHECK_PARAM_FIELDS: { readonly [K in CheckKind]: { readonly [F in keyof Required<CheckParamsByKind[K]>]: Field } } = {
  tcp: { ...LOCAL, port: req('port') },
  http: { ...LOCAL, port: req('port'), path: req('path'), expect_status: opt('status'), scheme: opt('scheme'), ca_file: opt('file') },
  'etcd.health': { ...LOCAL, port: req('port') },
  'nats.healthz': { ...LOCAL, monitor_port: req('port') },
  'etcd.cluster': { endpoints: req('urls'), timeout_ms: opt('timeout') },
  'nats.jetstream': { ...LOCAL, monitor_port: req('port'), client_port: req('port') },
  'etcd.kv': { endpoints: req('urls'), timeout_ms: opt('timeout') },
  'nats.pubsub': { endpoints: req('urls'), jetstream: opt('boolean'), timeout_ms: opt('timeout') },
  'node_exporter.metrics': { url: req('url'), timeout_ms: opt('timeout') },
  'opa.policy': { url: req('url'), timeout_ms: opt('timeout') },
  'openfga.check': { url: req('url'), timeout_ms: opt('timeout') },
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

function fieldProblem(type: FieldType, v: unknown): string | null {
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
  }
}

export type CheckParamsResult<K extends CheckKind = CheckKind> =
  { ok: true; kind: K; params: CheckParams<K> } | { ok: false; code: 'kind_unknown' | 'params_invalid'; message: string };

/** Judges a kind and its params; unknown fields are refused so a typo in the catalog is not silently ignored. */
export function checkParams(kind: unknown, params: unknown): CheckParamsResult {
  if (!isCheckKind(kind)) return { ok: false, code: 'kind_unknown', message: `unknown check kind ${JSON.stringify(kind)}` };
  if (!isPlainObject(params)) return { ok: false, code: 'params_invalid', message: `${kind}: params must be an object` };
  const fields: Record<string, Field> = CHECK_PARAM_FIELDS[kind];
  const problems: string[] = [];
  for (const name of Object.keys(params)) if (!Object.hasOwn(fields, name)) problems.push(`${name} is not a param of ${kind}`);
  for (const [name, field] of Object.entries(fields)) {
    const v = params[name];
    if (v === undefined) {
      if (field.required) problems.push(`${name} is required`);
      continue;
    }
    const want = fieldProblem(field.type, v);
    if (want) problems.push(`${name} must be ${want}`);
  }
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
