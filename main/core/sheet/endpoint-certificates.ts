// The Security tab's certificates: for each host's TLS port, the certificate the last check that handshook with it
// saw (its evidence.tls), joined by serial with the issuing ledger for its SANs, and the TLS versions settled on.
// Only what a handshake observed is shown; a port no check reached says so (observed: null).
import { CERTIFICATE_EXPIRING_DAYS } from '../../contract/certificates';
import type { ObservedChecks, SheetCertificate, SheetHandshake } from '../../contract/sheet-types';
import type { CheckOutcome, TlsHandshakeEvidence } from '../../wire/service-checks';
import { fleetSerial } from '../certificates/fleet';

const DAY = 86_400_000;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export interface EndpointHost {
  id: string;
  name: string;
  address: string;
}

/** A ledger row's names, by serial as the ledger keys it. */
export type SansBySerial = ReadonlyMap<string, string[]>;

type Role = 'liveness' | 'readiness' | 'functional';
interface Seen {
  at: string;
  kind: string;
  role: Role;
  ranOn: EndpointHost;
  tls: TlsHandshakeEvidence;
}

/** Splits "host:port" or "[v6]:port", with any " (NATS: ...)" note after it. */
export function parseTarget(target: string): { host: string; port: number } | null {
  const m = /^(?:\[([^\]]+)\]|([^\s:]+)):(\d+)(?:\s|$)/.exec(target);
  if (!m) return null;
  return { host: (m[1] ?? m[2])!, port: Number(m[3]) };
}

/** Every handshake in the checks' evidence, with the check and the host that ran it. */
function handshakesSeen(checks: ObservedChecks | null, hosts: EndpointHost[]): Seen[] {
  if (!checks) return [];
  const byId = new Map(hosts.map((h) => [h.id, h]));
  const runs: { at: string; role: Role; hostId: string; outcome: CheckOutcome }[] = [
    ...Object.entries(checks.liveness).map(([hostId, r]) => ({ at: r.at, role: 'liveness' as const, hostId, outcome: r.outcome })),
    ...(checks.readiness ? [{ ...checks.readiness, role: 'readiness' as const, hostId: checks.readiness.host_id }] : []),
    ...(checks.functional ? [{ ...checks.functional, role: 'functional' as const, hostId: checks.functional.host_id }] : []),
  ];
  return runs.flatMap((r) => {
    const ranOn = byId.get(r.hostId);
    const list = r.outcome.evidence.tls;
    if (!ranOn || !Array.isArray(list)) return [];
    return (list as TlsHandshakeEvidence[]).map((tls) => ({ at: r.at, kind: r.outcome.kind, role: r.role, ranOn, tls }));
  });
}

/** Whether a handshake's target is this host's port: its address or name, or loopback on the host that ran it. */
function reaches(seen: Seen, host: EndpointHost, port: number): boolean {
  const t = parseTarget(seen.tls.target);
  if (!t || t.port !== port) return false;
  if (LOOPBACK.has(t.host)) return seen.ranOn.id === host.id;
  return t.host === host.address || t.host === host.name;
}

function certificateOf(tls: TlsHandshakeEvidence, sans: SansBySerial, now: Date): SheetCertificate | null {
  const c = tls.certificate;
  if (!c) return null;
  const left = Date.parse(c.not_after) - now.getTime();
  return {
    subject: c.subject,
    sans: sans.get(fleetSerial(c.serial)) ?? null,
    issuer: c.issuer,
    serial: fleetSerial(c.serial),
    not_before: c.not_before,
    not_after: c.not_after,
    days_left: Math.floor(left / DAY),
    expiring: left < CERTIFICATE_EXPIRING_DAYS * DAY,
    fingerprint256: c.fingerprint256,
  };
}

/** Per host, the latest handshake with the port; the versions seen across them, newest first. */
export function endpointHandshakes(
  port: number,
  hosts: EndpointHost[],
  checks: ObservedChecks | null,
  sans: SansBySerial,
  now: Date,
): { handshakes: SheetHandshake[]; tls_versions: string[] } {
  const seen = handshakesSeen(checks, hosts);
  const handshakes = hosts.map((host): SheetHandshake => {
    const latest = seen.filter((s) => reaches(s, host, port)).sort((a, b) => b.at.localeCompare(a.at))[0];
    if (!latest) return { host_name: host.name, observed: null };
    return {
      host_name: host.name,
      observed: {
        at: latest.at,
        check: { kind: latest.kind, role: latest.role, host_name: latest.ranOn.name },
        target: latest.tls.target,
        protocol: latest.tls.protocol,
        cipher: latest.tls.cipher,
        certificate: certificateOf(latest.tls, sans, now),
      },
    };
  });
  const versions = new Set(handshakes.flatMap((h) => (h.observed?.protocol ? [h.observed.protocol] : [])));
  return { handshakes, tls_versions: [...versions].sort().reverse() };
}
