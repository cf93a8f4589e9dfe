// What a report line shows of a TLS handshake: the certificate each endpoint served (subject, issuer, serial,
// not-after, days left) lifted from wherever the check kept it — the manager's probe (preflight), the gateway
// probe, the node agents' evidence.tls — so that an auditor reads the same four facts on every TLS line.
import { isPlainObject } from '../../wire/payloads';

export interface CertificateEvidence {
  target: string | null;
  subject: string;
  issuer: string;
  serial: string;
  not_after: string;
  days_left: number | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function fromCertificate(target: unknown, c: unknown, notAfterKey: 'not_after' | 'valid_to', now: Date): CertificateEvidence | null {
  if (!isPlainObject(c)) return null;
  const subject = text(c.subject);
  const issuer = text(c.issuer);
  const serial = text(c.serial);
  const notAfter = text(c[notAfterKey]);
  if (subject === null || issuer === null || serial === null || notAfter === null) return null;
  const days = typeof c.days_left === 'number' ? c.days_left : Math.floor((Date.parse(notAfter) - now.getTime()) / 86_400_000);
  return { target: text(target), subject, issuer, serial, not_after: notAfter, days_left: Number.isFinite(days) ? days : null };
}

/** The certificates a check's evidence holds, in the order its handshakes ran; empty for a check without TLS. */
export function certificatesIn(evidence: Record<string, unknown>, now: Date): CertificateEvidence[] {
  const probe = evidence.probe;
  if (isPlainObject(probe)) {
    // The manager's TLS probe (an endpoint) or its gateway probe.
    const c =
      fromCertificate(probe.target, probe.certificate, 'valid_to', now) ??
      fromCertificate(probe.target, probe.server_certificate, 'valid_to', now);
    return c ? [c] : [];
  }
  if (Array.isArray(evidence.tls))
    return evidence.tls.flatMap((h) => {
      const c = isPlainObject(h) ? fromCertificate(h.target, h.certificate, 'not_after', now) : null;
      return c ? [c] : [];
    });
  return [];
}

/** The evidence member a TLS line carries: `certificates` when the check handshook with one or more endpoints. */
export function certificateMember(evidence: Record<string, unknown>, now: Date): { certificates?: CertificateEvidence[] } {
  const certificates = certificatesIn(evidence, now);
  return certificates.length > 0 ? { certificates } : {};
}
