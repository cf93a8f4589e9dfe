// One check run: the evidence it gathers, its steps (clean-up steps included) and the outcome it turns into. A
// failing service never throws out of here: every error becomes an outcome with a stable code.
import type { CheckErrorCode, CheckOutcome, CheckStep, CheckWarningCode } from '../../main/wire/service-checks';
import { formatTimestamp } from '../../main/wire/timestamps';

/** A check's own verdict on what it observed: the service answered, wrongly. */
export class CheckFailure extends Error {
  readonly code: CheckErrorCode;

  constructor(code: CheckErrorCode, message: string) {
    super(message);
    this.name = 'CheckFailure';
    this.code = code;
  }
}

export interface RunCheckOptions {
  /**
   * Awaited after each step, with the evidence so far: the plan executor streams progress from it. The check
   * goes on only once it returns.
   */
  onStep?: (step: CheckStep, evidence: Readonly<Record<string, unknown>>) => void | Promise<void>;
  now?: () => Date;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** The code of an error thrown by a client library or by fetch, as far as it can be told apart. */
export function classifyError(error: unknown): CheckErrorCode {
  if (error instanceof CheckFailure) return error.code;
  const e = error as { name?: unknown; code?: unknown; cause?: { code?: unknown; name?: unknown } } | null;
  // etcd3's error classes keep the name Error: their constructor says which gRPC status it was.
  const ctor = (error as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  const name = `${typeof e?.name === 'string' ? e.name : ''} ${typeof ctor === 'string' ? ctor : ''}`;
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : '';
  if (/\b(TimeoutError|AbortError)\b/.test(name) || code === 'ETIMEDOUT' || code === 'ECONNABORTED' || /Deadline|Timeout/.test(name))
    return 'timeout';
  // Node names certificate failures by their OpenSSL reason (UNABLE_TO_VERIFY_LEAF_SIGNATURE, CERT_HAS_EXPIRED…).
  const tlsCode = tlsFailure(code, typeof (error as { message?: unknown })?.message === 'string' ? (error as Error).message : '');
  if (tlsCode) return tlsCode;
  if (NETWORK_CODES.has(code) || code === 'UND_ERR_SOCKET' || /Unavailable/.test(name)) return 'unreachable';
  return 'service_error';
}

const UNTRUSTED =
  /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_SIGNATURE_FAILURE|CERT_UNTRUSTED|CERT_REJECTED)$/;
/** What OpenSSL says of a peer's first bytes when the peer does not speak TLS. */
export const NOT_TLS = /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST|UNKNOWN_PROTOCOL|RECORD_LAYER_FAILURE|RECORD_TOO_LONG/;

/** What a TLS error code says went wrong, as the TLS handshake check names it; null when it is no TLS error. */
export function tlsFailure(code: string, message = ''): CheckErrorCode | null {
  if (UNTRUSTED.test(code)) return 'tls_untrusted';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'tls_expired';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'tls_name_mismatch';
  if (NOT_TLS.test(code) || (code.startsWith('ERR_SSL_') && NOT_TLS.test(message.toUpperCase().replace(/ /g, '_')))) return 'not_tls';
  // An alert from the server: it refused the handshake (no client certificate, or one it does not trust).
  if (/^ERR_SSL_.*ALERT/.test(code)) return 'tls_refused';
  if (/CERT|ERR_TLS|ERR_SSL/.test(code)) return 'tls_invalid';
  return null;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const base = error.message || error.name;
    return cause instanceof Error && cause.message && !base.includes(cause.message) ? `${base}: ${cause.message}` : base;
  }
  return String(error);
}

/** A promise bounded by a deadline, for client calls that take no timeout of their own (a NATS flush). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what}: no answer within ${ms} ms`), { name: 'TimeoutError' })), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export class CheckRun {
  readonly evidence: Record<string, unknown> = {};
  readonly steps: CheckStep[] = [];
  private cleanupFailed: string | null = null;
  /** The first warning, reported only if the check passes. */
  warning: CheckOutcome['warning'];

  constructor(private readonly options: RunCheckOptions) {}

  /** Runs one step of a functional test: recorded pass or fail, and a failure goes on up to end the test. */
  async step<T>(name: string, fn: () => Promise<T>, detail?: (value: T) => string): Promise<T> {
    let value: T;
    try {
      value = await fn();
    } catch (error) {
      await this.record({ name, status: 'fail', detail: errorMessage(error) });
      throw error;
    }
    await this.record({ name, status: 'pass', ...(detail ? { detail: detail(value) } : {}) });
    return value;
  }

  /** Something that passed but needs attention soon; the outcome carries the first one when the check passes. */
  warn(code: CheckWarningCode, message: string): void {
    this.warning ??= { code, message };
  }

  /** A step that did not run because an earlier one failed. */
  skip(name: string, why: string): void {
    this.steps.push({ name, status: 'skipped', detail: why });
  }

  /** A clean-up step: never throws, and a failed one fails the check even when everything before passed. */
  async cleanup(name: string, fn: () => Promise<string | void>): Promise<void> {
    try {
      const detail = await fn();
      await this.record({ name, status: 'pass', ...(detail ? { detail } : {}) });
    } catch (error) {
      this.cleanupFailed ??= `${name}: ${errorMessage(error)}`;
      await this.record({ name, status: 'fail', detail: errorMessage(error) });
    }
  }

  private async record(step: CheckStep): Promise<void> {
    this.steps.push(step);
    // A progress listener that throws must not turn into the service's failure; the step is already recorded.
    await Promise.resolve(this.options.onStep?.(step, this.evidence)).catch(() => undefined);
  }

  get cleanupError(): string | null {
    return this.cleanupFailed;
  }
}

/**
 * Runs a check body and builds its outcome. The body throws to fail (a CheckFailure for a verdict, anything
 * else is classified); it runs its clean-up itself, in finally, through run.cleanup.
 */
export async function runBody(
  kind: string,
  method: string,
  options: RunCheckOptions,
  body: (run: CheckRun) => Promise<void>,
  functional = false,
): Promise<CheckOutcome> {
  const now = options.now ?? (() => new Date());
  const started = now();
  const t0 = performance.now();
  const run = new CheckRun(options);
  let error: CheckOutcome['error'];
  try {
    await body(run);
    if (run.cleanupError) error = { code: 'cleanup_failed', message: run.cleanupError };
  } catch (e) {
    error = { code: classifyError(e), message: errorMessage(e) };
    if (run.cleanupError) run.evidence.cleanup_error = run.cleanupError;
  }
  return {
    kind,
    status: error ? 'fail' : 'pass',
    started_at: formatTimestamp(started),
    duration_ms: Math.round(performance.now() - t0),
    method,
    evidence: run.evidence,
    ...(functional ? { steps: run.steps } : {}),
    ...(error ? { error } : run.warning ? { warning: run.warning } : {}),
  };
}
