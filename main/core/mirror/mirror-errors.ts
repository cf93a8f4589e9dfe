// The mirror's failures, each with a stable code: the registry unreachable or untrusted, a refusal, an
// answer that is not what the OCI distribution API promises, and content whose digest does not match.
import { CoreError } from '../errors';

export type MirrorErrorCode =
  | 'mirror_not_configured'
  | 'mirror_unreachable'
  | 'mirror_tls_untrusted'
  | 'mirror_auth_required'
  | 'mirror_not_found'
  | 'mirror_error'
  | 'digest_mismatch';

export class MirrorError extends CoreError<MirrorErrorCode> {
  override name = 'MirrorError';
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_UNTRUSTED',
]);

/** A socket-level failure of a request to the mirror, as a MirrorError. */
export function transportError(error: NodeJS.ErrnoException, target: string): MirrorError {
  const code = error.code ?? 'error';
  const first = (error.message ?? String(error)).split('\n')[0];
  if (TLS_CODES.has(code))
    return new MirrorError('mirror_tls_untrusted', `the mirror's certificate is not trusted (${code}) at ${target}`, { cause: code });
  return new MirrorError('mirror_unreachable', `the mirror cannot be reached at ${target}: ${code}: ${first}`, { cause: code });
}
