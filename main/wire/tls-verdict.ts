// How a completed TLS handshake is judged, by the manager's probe (core/checks/tls-endpoint.ts) and the agents'
// checks (agent/checks/tls-handshake.ts) alike: OpenSSL's trust verdict kept, time judged again at the caller's
// clock (an expired chain certificate fails as the leaf would), then the name, then the notice before expiry.
// Node-only (node:tls, node:crypto), as ed25519-node.ts: the renderer never imports it.
import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import type { TlsCertificateEvidence, TlsVerdict } from './service-checks';

/** The peer's certificate is not valid now; OpenSSL judges by the machine's clock, the judge judges again. */
const TLS_TIME_CODES: ReadonlySet<string> = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
]);

const DAY = 86_400_000;

export interface TlsJudgement {
  verdict: TlsVerdict;
  /** OpenSSL's code, or the judge's, when the verdict is not ok or expiring. */
  code: string | null;
  message: string;
  certificate: TlsCertificateEvidence | null;
}

export interface JudgeOptions {
  /** The trust anchors, PEM (several per string allowed); none: the system's. */
  caPems: readonly string[];
  /** The name the certificate must carry (an IP is checked against IP SANs). */
  serverName: string;
  now: Date;
  warnDays: number;
  /** How the anchors are named in an untrusted verdict's message ("the CA in /etc/…/ca.crt"). */
  anchorsLabel: string;
}

const oneLine = (dn: string): string => dn.replace(/\n/g, ', ');
const splitPems = (pem: string): string[] => pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];

/** Judges the completed handshake of `socket`, made with rejectUnauthorized false and no name check. */
export function judgeHandshake(socket: tls.TLSSocket, o: JudgeOptions): TlsJudgement {
  const chain = peerChain(socket);
  const leaf = chain[0];
  if (!leaf) return { verdict: 'untrusted', code: 'no_certificate', message: 'the server sent no certificate', certificate: null };
  const now = o.now.getTime();
  const validTo = Date.parse(leaf.validTo);
  const certificate: TlsCertificateEvidence = {
    subject: oneLine(leaf.subject),
    issuer: oneLine(leaf.issuer),
    serial: leaf.serialNumber,
    not_before: new Date(Date.parse(leaf.validFrom)).toISOString(),
    not_after: new Date(validTo).toISOString(),
    days_left: Math.floor((validTo - now) / DAY),
    fingerprint256: leaf.fingerprint256,
  };
  const judged = (verdict: TlsVerdict, code: string | null, message: string): TlsJudgement => ({ verdict, code, message, certificate });
  const authError = socket.authorized ? null : String(socket.authorizationError ?? 'UNKNOWN');
  if (authError && !(TLS_TIME_CODES.has(authError) && anchored(chain, o.caPems)))
    return judged(
      'untrusted',
      authError,
      `the certificate ${certificate.subject} (issuer ${certificate.issuer}) is not signed by ${o.anchorsLabel} (${authError})`,
    );
  for (const cert of chain) {
    const which = cert === leaf ? 'the certificate' : `the chain certificate ${oneLine(cert.subject)}`;
    if (Date.parse(cert.validTo) <= now)
      return judged('expired', 'CERT_HAS_EXPIRED', `${which} expired on ${new Date(Date.parse(cert.validTo)).toISOString()}`);
    if (Date.parse(cert.validFrom) > now)
      return judged('expired', 'CERT_NOT_YET_VALID', `${which} is not valid before ${new Date(Date.parse(cert.validFrom)).toISOString()}`);
  }
  const nameError = tls.checkServerIdentity(o.serverName, socket.getPeerCertificate());
  if (nameError) return judged('name_mismatch', 'name_mismatch', nameError.message);
  if (certificate.days_left < o.warnDays)
    return judged(
      'expiring',
      null,
      `the certificate expires in ${certificate.days_left} days (on ${certificate.not_after}), under the ${o.warnDays}-day notice`,
    );
  return judged(
    'ok',
    null,
    `trusted ${socket.getProtocol()} handshake; the certificate is valid for ${o.serverName} for ${certificate.days_left} more days`,
  );
}

/** The peer's chain as sent, leaf first, without the self-signed root repeated. */
function peerChain(socket: tls.TLSSocket): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  let cert: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (cert && cert.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    chain.push(new X509Certificate(cert.raw));
    cert = cert.issuerCertificate;
  }
  return chain;
}

/** Whether the chain links, signature by signature, to one of the anchors (when OpenSSL only objected to time). */
function anchored(chain: X509Certificate[], caPems: readonly string[]): boolean {
  const anchors = (caPems.length > 0 ? caPems : tls.rootCertificates).flatMap(splitPems).map((pem) => new X509Certificate(pem));
  for (let i = 0; i < chain.length; i++) {
    const cert = chain[i]!;
    if (anchors.some((a) => a.fingerprint256 === cert.fingerprint256 || (cert.checkIssued(a) && cert.verify(a.publicKey)))) return true;
    const next = chain[i + 1];
    if (!next || !cert.checkIssued(next) || !cert.verify(next.publicKey)) return false;
  }
  return false;
}
