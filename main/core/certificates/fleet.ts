// The fleet view (issue 34, "Seeing it"): every certificate the product issued — the manager CA's ledger (agents,
// console, gateway) and the service CAs' — merged into one list, the soonest to expire first, with days left and
// the under-14-days flag. It reads both ledgers through the narrow readers it is handed; neither holds a key.
import { CERTIFICATE_EXPIRING_DAYS, type FleetCertificate, type FleetCertificateState } from '../../contract/certificates';
import { clusterUri } from '../keys/ca';
import type { CertificateRecord } from '../keys/keys-tables';
import { ledgerSerial, type IssuedCertificateRecord } from './certificates-tables';

const DAY = 86_400_000;

/** What the fleet view reads: the two ledgers, each already sorted or not. */
export interface FleetLedgers {
  /** The certificates the service CAs signed (Certificates.list). */
  serviceCertificates(): IssuedCertificateRecord[];
  /** The certificates the manager CA signed (KeysTables.certificates). */
  managerCertificates(): CertificateRecord[];
}

/** The two ledgers as the manager holds them (its certificates service, its keys tables). */
export const fleetLedgers = (m: {
  certificates: { list(): IssuedCertificateRecord[] };
  tables: { keys: { certificates(): CertificateRecord[] } };
}): FleetLedgers => ({
  serviceCertificates: () => m.certificates.list(),
  managerCertificates: () => m.tables.keys.certificates(),
});

/** A served certificate's serial as the ledgers key it (what a TLS stack reports is upper case, zero-padded). */
export const fleetSerial = ledgerSerial;

/** The SANs each service CA certificate names, by its ledger serial: what a handshake's evidence does not carry. */
export const sansBySerial = (records: IssuedCertificateRecord[]): Map<string, string[]> =>
  new Map(records.map((c) => [ledgerSerial(c.serial), [...c.dns_names, ...c.ip_addresses]]));

export interface FleetFilter {
  clusterId?: string;
  /** Only those whose not-after is at most this many days away (past ones included). */
  expiringWithinDays?: number;
}

/** Every certificate, the soonest to expire first (then by serial), filtered as asked, at `now`. */
export function certificateFleet(ledgers: FleetLedgers, now: Date, filter: FleetFilter = {}): FleetCertificate[] {
  const byManager = ledgers.managerCertificates().map((c) => fromManagerCa(c, now));
  const known = new Set(byManager.map((c) => c.serial));
  // An agent's certificate the service ledger records too is the manager CA's: listed once, from its own ledger.
  const byServiceCas = ledgers
    .serviceCertificates()
    .filter((c) => !known.has(ledgerSerial(c.serial)))
    .map((c) => fromServiceCa(c, now));
  const horizon = filter.expiringWithinDays === undefined ? undefined : now.getTime() + filter.expiringWithinDays * DAY;
  return [...byManager, ...byServiceCas]
    .filter((c) => filter.clusterId === undefined || c.cluster_id === filter.clusterId)
    .filter((c) => horizon === undefined || Date.parse(c.not_after) <= horizon)
    .sort((a, b) => Date.parse(a.not_after) - Date.parse(b.not_after) || a.serial.localeCompare(b.serial));
}

/** Whole days left, rounded down (negative once past): "13" means under 14. */
const daysLeft = (notAfter: string, now: Date): number => Math.floor((Date.parse(notAfter) - now.getTime()) / DAY);

function timed(
  notAfter: string,
  recorded: Exclude<FleetCertificateState, 'expired'>,
  now: Date,
): Pick<FleetCertificate, 'not_after' | 'days_left' | 'state' | 'expiring'> {
  const left = Date.parse(notAfter) - now.getTime();
  const state: FleetCertificateState = recorded === 'issued' && left <= 0 ? 'expired' : recorded;
  const inUse = state === 'issued' || state === 'expired';
  return { not_after: notAfter, days_left: daysLeft(notAfter, now), state, expiring: inUse && left < CERTIFICATE_EXPIRING_DAYS * DAY };
}

function fromManagerCa(c: CertificateRecord, now: Date): FleetCertificate {
  const hostId = c.host_id ?? null;
  const kind = c.kind === 'client' ? (hostId === null ? 'agent' : 'node-agent') : c.kind;
  // A client certificate's only SAN is its agent's URI (a node agent's is its CN); a server's names are not kept.
  const sans = kind === 'agent' && c.cluster_id ? [clusterUri(c.cluster_id)] : kind === 'node-agent' ? [c.subject] : null;
  return {
    serial: ledgerSerial(c.serial),
    kind,
    cluster_id: c.cluster_id,
    host_id: hostId,
    service: null,
    subject: c.subject,
    sans,
    issuer: { ca: 'manager', serial: null },
    ...timed(c.not_after, c.revoked_at === null ? 'issued' : 'revoked', now),
  };
}

function fromServiceCa(c: IssuedCertificateRecord, now: Date): FleetCertificate {
  return {
    serial: ledgerSerial(c.serial),
    kind: c.kind,
    cluster_id: c.cluster_id,
    host_id: c.host_id,
    service: c.service,
    subject: c.subject,
    sans: [...c.dns_names, ...c.ip_addresses],
    issuer: c.ca_serial === null ? { ca: 'manager', serial: null } : { ca: 'service', serial: c.ca_serial },
    ...timed(c.not_after, c.state, now),
  };
}
