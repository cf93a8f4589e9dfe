// One set of network and TLS codes: the table's verdicts, and the Kubernetes client judging by the same set.
import { describe, expect, it } from 'vitest';
import { classifyKubeError } from '../../../../main/core/kubernetes/kube-client';
import {
  DROPPED_CODES,
  errorCode,
  networkFailure,
  TLS_TIME_CODES,
  TLS_TRUST_CODES,
  UNREACHABLE_CODES,
} from '../../../../main/core/net/network-errors';

const socketError = (code: string): Error => Object.assign(new Error(`connect ${code}`), { code });

describe('the network and TLS error codes', () => {
  it('name where a connection failed: not made, dropped, not trusted, not TLS, refused by OpenSSL', () => {
    expect(networkFailure('ECONNREFUSED')).toBe('unreachable');
    expect(networkFailure('EADDRNOTAVAIL')).toBe('unreachable');
    expect(networkFailure('ECONNRESET')).toBe('dropped');
    expect(networkFailure('SELF_SIGNED_CERT_IN_CHAIN')).toBe('tls_untrusted');
    expect(networkFailure('ERR_SSL_WRONG_VERSION_NUMBER')).toBe('not_tls');
    expect(networkFailure('EPROTO', 'wrong version number')).toBe('not_tls');
    expect(networkFailure('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE')).toBe('tls_refused');
    expect(networkFailure('EWHATEVER')).toBe('other');
  });

  it('count a certificate not valid now among the untrusted ones', () => {
    for (const code of TLS_TIME_CODES) expect(TLS_TRUST_CODES.has(code)).toBe(true);
  });

  it('are found along the cause chain of a wrapped error', () => {
    expect(errorCode(new Error('fetch failed', { cause: socketError('ENOTFOUND') }))).toBe('ENOTFOUND');
    expect(errorCode(new Error('plain'))).toBeUndefined();
  });

  it('are the ones the Kubernetes client judges by', () => {
    for (const code of [...UNREACHABLE_CODES, ...DROPPED_CODES])
      expect(classifyKubeError(new Error('x', { cause: socketError(code) }), 'https://k').code).toBe('api_unreachable');
    for (const code of TLS_TRUST_CODES) expect(classifyKubeError(socketError(code), 'https://k').code).toBe('tls_untrusted');
  });
});
