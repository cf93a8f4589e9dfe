// Agent certificates renewed over the agent's own mTLS connection (issue 34): a CSR in, a client certificate of the
// manager CA out for the CSR's key, bound to the identity of the calling certificate (its cluster, or its host by
// URI SAN urn:navin:host:<id>) and never to the CSR's names. The calling certificate stays valid until the gateway
// first sees the new one, and is then revoked. An answer the agent never received (a connection cut after the
// commit) leaves it calling with the old one: its next renewal revokes the unused one and issues anew, so the agent
// never holds a key whose certificate is lost nor stays locked out of renewing.
import type { Clock } from '../clock';
import { CoreError } from '../errors';
import type { CoreEvents } from '../events';
import type { Store } from '../store/store';
import { verifiedCsrKey } from './csr-signing';
import type { CertificateRenewalResponse } from '../../wire/certificate-renewal';
import type { CertificateAuthority } from '../keys/ca';

/** A certificate's record, as far as a renewal reads it. */
export interface CertificateRow {
  serial: string;
  kind: string;
  cluster_id: string | null;
  host_id?: string | null;
  revoked_at: string | null;
}

/** What a renewal reads and writes: the manager CA's certificate records, and a host's binding of a serial. */
export interface RenewalTables {
  keys: {
    certificate(serial: string): CertificateRow | undefined;
    /** Revokes the live certificates of the same agent issued after this one (its renewals never used); returns them. */
    revokeUnusedRenewalsOf(serial: string, at: string): string[];
    /** Revokes the live certificates of the same agent issued before this one; returns their serials. */
    revokeRenewedBy(serial: string, at: string): string[];
  };
  hosts: { bindCertificate(serial: string, hostId: string): void };
}

/** Who acts in the audit: the agent of a cluster or of a host, as the gateway's other records name it. */
const agentActor = (c: CertificateRow): string => (c.host_id ? `agent:host:${c.host_id}` : `agent:${c.cluster_id}`);

export class AgentRenewals {
  /** Serials the gateway has seen once since this process started: what they renewed is revoked already. */
  private readonly confirmed = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly tables: RenewalTables,
    private readonly ca: CertificateAuthority,
    private readonly clock: Clock,
    private readonly events: CoreEvents,
  ) {}

  /**
   * A certificate for the key of `csrPem`, for the agent whose live certificate `callerSerial` is. Refused
   * csr_* when the CSR is not an RSA request signed by its own key, certificate_refused when it is not a live client
   * certificate (a renewal of it used once revoked it). A renewal of it issued before and never used is revoked:
   * its answer was lost, or its key was, since the agent still calls with this one.
   */
  renew(callerSerial: string, csrPem: string): CertificateRenewalResponse {
    const publicKey = verifiedCsrKey(csrPem);
    return this.store.tx(() => {
      const caller = this.tables.keys.certificate(callerSerial);
      if (!caller || caller.kind !== 'client' || !caller.cluster_id || caller.revoked_at !== null)
        throw new CoreError('certificate_refused', 'this client certificate is unknown or revoked');
      const unused = this.tables.keys.revokeUnusedRenewalsOf(caller.serial, this.clock.now().toISOString());
      const hostId = caller.host_id ?? null;
      const cert = this.ca.renewClient(caller.cluster_id, hostId, publicKey);
      if (hostId) this.tables.hosts.bindCertificate(cert.serial, hostId);
      this.store.audit.append({
        actor: agentActor(caller),
        action: hostId ? 'host.certificate_renew' : 'agent.certificate_renew',
        cluster_id: caller.cluster_id,
        target: cert.serial,
        details: {
          ...(hostId ? { host_id: hostId } : {}),
          previous_serial: caller.serial,
          not_after: cert.notAfter.toISOString(),
          ...(unused.length > 0 ? { revoked_unused_serials: unused } : {}),
        },
      });
      return { serial: cert.serial, certificate: cert.certPem, ca: this.ca.certPem, not_after: cert.notAfter.toISOString() };
    });
  }

  /**
   * The gateway saw a request with the live certificate `record`: the certificates it renewed are revoked now
   * (audited, and announced so that their held polls end). Once a serial per process: after that it is a lookup.
   */
  seen(record: CertificateRow): void {
    if (this.confirmed.has(record.serial)) return;
    const revoked = this.store.tx(() => {
      const serials = this.tables.keys.revokeRenewedBy(record.serial, this.clock.now().toISOString());
      if (serials.length > 0)
        this.store.audit.append({
          actor: agentActor(record),
          action: record.host_id ? 'host.certificate_switch' : 'agent.certificate_switch',
          cluster_id: record.cluster_id,
          target: record.serial,
          details: { ...(record.host_id ? { host_id: record.host_id } : {}), revoked_serials: serials },
        });
      return serials;
    });
    this.confirmed.add(record.serial);
    if (revoked.length === 0 || !record.cluster_id) return;
    if (record.host_id) this.events.emit('host.changed', { id: record.host_id, cluster_id: record.cluster_id });
    else this.events.emit('cluster.changed', { id: record.cluster_id });
  }
}
