// What the renewal schedule renews: the service certificates in use past two thirds of their life, gathered into
// one renewal per service of a cluster that names the hosts whose certificates are due. Pure.
import type { IssuedCertificateRecord } from './certificates-tables';

/** A service's renewal: the hosts holding a due certificate, and how soon the first of them expires. */
export interface DueRenewal {
  cluster_id: string;
  service: string;
  /** The hosts whose certificates are due, in the order the ledger lists them. */
  host_ids: string[];
  /** The due certificates' serials. */
  serials: string[];
  /** The earliest of their renewal dates and of their expiries. */
  renew_after: string;
  not_after: string;
}

/**
 * The certificates due (Certificates.dueForRenewal) as renewals: a service certificate of a host counts; one of no
 * host (none is issued today) has no host to renew it on and is left to the fleet view's expiring mark. The
 * renewal that expires first comes first.
 */
export function dueRenewals(due: readonly IssuedCertificateRecord[]): DueRenewal[] {
  const byService = new Map<string, DueRenewal>();
  for (const c of due) {
    if (c.kind !== 'service' || c.service === null || c.host_id === null || c.state !== 'issued') continue;
    const key = `${c.cluster_id}\u0000${c.service}`;
    const r = byService.get(key);
    if (!r) {
      byService.set(key, {
        cluster_id: c.cluster_id,
        service: c.service,
        host_ids: [c.host_id],
        serials: [c.serial],
        renew_after: c.renew_after,
        not_after: c.not_after,
      });
      continue;
    }
    if (!r.host_ids.includes(c.host_id)) r.host_ids.push(c.host_id);
    r.serials.push(c.serial);
    if (c.renew_after < r.renew_after) r.renew_after = c.renew_after;
    if (c.not_after < r.not_after) r.not_after = c.not_after;
  }
  return [...byService.values()].sort((a, b) => a.not_after.localeCompare(b.not_after) || a.service.localeCompare(b.service));
}
