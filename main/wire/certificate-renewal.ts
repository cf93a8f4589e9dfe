// An agent's client certificate renewed over its own mTLS connection: what the agent sends and is answered on the
// certificate route of its kind (GATEWAY_PATHS.certificate, NODE_AGENT_PATHS.certificate), and when it asks.
// The manager takes only the CSR's public key: the identity is the one its calling certificate is bound to.

/** A PEM CSR of an RSA key of up to 4096 bits is about 1.8 kB; anything far larger is not one. */
export const CSR_MAX_CHARS = 8192;

/** The key an agent makes for its CSR: RSA, as the manager's CA (node-forge) reads only RSA certificate requests. */
export const RENEWAL_KEY_BITS = 2048;

export interface CertificateRenewalRequest {
  csr: string;
}

/** The new certificate and the chain that issued it; the key never travels (the agent made it). */
export interface CertificateRenewalResponse {
  serial: string;
  certificate: string;
  ca: string;
  not_after: string;
}

/** Below this many days left an agent renews whatever the certificate's life. */
export const RENEW_WITHIN_DAYS = 14;

/**
 * Whether a certificate valid from `notBefore` to `notAfter` is due for renewal at `now`: once two thirds of its
 * life have passed, and always within RENEW_WITHIN_DAYS of its end.
 */
export function renewalDue(notBefore: Date, notAfter: Date, now: Date): boolean {
  const from = notBefore.getTime();
  const to = notAfter.getTime();
  const at = now.getTime();
  return at >= from + ((to - from) * 2) / 3 || to - at <= RENEW_WITHIN_DAYS * 86_400_000;
}
