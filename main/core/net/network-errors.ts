// The one set of network and TLS error codes (Node's errno codes and OpenSSL's verdicts) that the Kubernetes
// client, the gateway probe and the TLS endpoint probe judge failures by, so that "unreachable" or "not
// trusted" means the same thing in a registration, a preflight line and an acceptance report.

/** No connection was made: nothing listens, no route, no such name, no answer in time. */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

/** A connection was made and the peer dropped it (during a TLS handshake: a refusal). */
export const DROPPED_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE']);

/** The peer's certificate is not valid now; OpenSSL judges by the machine's clock, a probe may judge again. */
export const TLS_TIME_CODES: ReadonlySet<string> = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
]);

/** The peer's certificate is not trusted: no chain to the anchors, not valid now, or not for this name. */
export const TLS_TRUST_CODES: ReadonlySet<string> = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_SIGNATURE_FAILURE',
  ...TLS_TIME_CODES,
]);

/** What a peer that does not speak TLS makes OpenSSL say about its first bytes. */
const NOT_TLS = /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST|UNKNOWN_PROTOCOL|RECORD_LAYER_FAILURE|RECORD_TOO_LONG/;

/** The code of a failure, looked for along its `cause` chain (fetch and client-node wrap the socket's error). */
export function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

export type NetworkFailure = 'unreachable' | 'dropped' | 'tls_untrusted' | 'not_tls' | 'tls_refused' | 'other';

/** What a code (and the error's message, for OpenSSL's wordings) says about where the connection failed. */
export function networkFailure(code: string, message = ''): NetworkFailure {
  if (UNREACHABLE_CODES.has(code)) return 'unreachable';
  if (TLS_TRUST_CODES.has(code)) return 'tls_untrusted';
  if (NOT_TLS.test(code) || NOT_TLS.test(message.toUpperCase().replace(/ /g, '_'))) return 'not_tls';
  if (DROPPED_CODES.has(code)) return 'dropped';
  if (code.startsWith('ERR_SSL_')) return 'tls_refused';
  return 'other';
}
