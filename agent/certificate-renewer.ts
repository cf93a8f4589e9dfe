// An agent renews its own client certificate before it expires: checked at start and then on a timer, due once two
// thirds of its life have passed (or within 14 days of its end). It makes a new key and a CSR, sends the CSR over
// its current mTLS connection, checks the answer (its key's certificate, issued by the CA it trusts), commits the
// pair to its store (identity folder or Secret) and then switches every call to it. Any failure keeps the old pair
// for the next try; the manager revokes a renewal that was never used when asked again. A pair its store holds
// that is newer than the one in use (the other replica renewed it) is taken up first.
import { X509Certificate } from 'node:crypto';
import { renewalDue } from '../main/wire/certificate-renewal';
import { certificateMatchesKey } from './certificate-files';
import type { CertificatePair, CertificateStore } from './certificate-store';
import { newKeyAndRequest } from './csr';
import type { CertificateChannel } from './gateway-client';
import type { CommonConfig, Identity } from './identity';
import { log } from './log';

/** How often the certificate's age is looked at: hourly is far finer than the two thirds of a life of days. */
export const RENEWAL_CHECK_MS = 3_600_000;

/** What an agent is given to renew its certificate: where the pair is kept, and a clock and period for tests. */
export interface RenewalOptions {
  /** Where the renewed pair is kept across restarts: the identity folder, or the cluster agent's identity Secret. */
  store: CertificateStore;
  now?: () => Date;
  everyMs?: number;
}

export interface CertificateRenewerOptions extends RenewalOptions {
  /** Its certPem and keyPem follow each renewal. */
  identity: Identity<CommonConfig>;
  gateway: CertificateChannel;
  /** The CSR's common name (informative; the manager names the certificate by the calling one). */
  commonName: string;
  /** Only the active agent renews (the cluster agent's Lease holder; a node agent always). */
  isActive: () => boolean;
}

export type RenewalOutcome = 'renewed' | 'adopted' | 'not_due' | 'standby' | 'failed';

/** The renewer of an agent given RenewalOptions, none without them: both agents build theirs here. */
export function certificateRenewer(
  renewal: RenewalOptions | undefined,
  o: Omit<CertificateRenewerOptions, keyof RenewalOptions>,
): CertificateRenewer | undefined {
  return renewal && new CertificateRenewer({ ...renewal, ...o });
}

const serialOf = (cert: X509Certificate): string => cert.serialNumber.toLowerCase();

export class CertificateRenewer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RenewalOutcome> | undefined;

  constructor(private readonly o: CertificateRenewerOptions) {}

  start(): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), this.o.everyMs ?? RENEWAL_CHECK_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Renews when due, or now when `force`d (a CA rotation); one renewal at a time (a check during one answers its outcome). */
  check(force = false): Promise<RenewalOutcome> {
    this.running ??= this.renewIfDue(force).finally(() => (this.running = undefined));
    return this.running;
  }

  private async renewIfDue(force: boolean): Promise<RenewalOutcome> {
    if (!this.o.isActive()) return 'standby';
    const { identity, store } = this.o;
    const now = this.o.now?.() ?? new Date();
    try {
      if (await this.adoptNewer(now)) return 'adopted';
    } catch (error) {
      log('certificate.store_unreadable', { error: (error as Error).message }, 'warn');
    }
    const current = new X509Certificate(identity.certPem);
    if (!force && !renewalDue(new Date(current.validFrom), new Date(current.validTo), now)) return 'not_due';
    log('certificate.renewing', { serial: serialOf(current), not_after: new Date(current.validTo).toISOString() });
    try {
      const { keyPem, csrPem } = newKeyAndRequest(this.o.commonName);
      await store.stage(keyPem);
      const answer = await this.o.gateway.renewCertificate(csrPem);
      const renewed = new X509Certificate(answer.certificate);
      if (!certificateMatchesKey(answer.certificate, keyPem)) throw new Error('the answered certificate is not the one of the new key');
      if (!renewed.verify(new X509Certificate(identity.caPem).publicKey))
        throw new Error('the answered certificate is not issued by the manager CA this agent trusts');
      await store.commit(identity.certPem, { certPem: answer.certificate, keyPem });
      this.use({ certPem: answer.certificate, keyPem });
      log('certificate.renewed', {
        previous_serial: serialOf(current),
        serial: serialOf(renewed),
        not_after: new Date(renewed.validTo).toISOString(),
      });
      return 'renewed';
    } catch (error) {
      log(
        'certificate.renew_failed',
        { error: (error as Error).message, retry_in_s: Math.round((this.o.everyMs ?? RENEWAL_CHECK_MS) / 1000) },
        'warn',
      );
      return 'failed';
    }
  }

  /**
   * Takes up the pair the store holds when it is not the one in use, is whole, issued by the trusted CA, still
   * valid and issued later: a renewal by the other replica, whose first use revoked the certificate held here.
   */
  private async adoptNewer(now: Date): Promise<boolean> {
    const kept = await this.o.store.current();
    if (kept.certPem === this.o.identity.certPem) return false;
    const held = new X509Certificate(this.o.identity.certPem);
    const cert = new X509Certificate(kept.certPem);
    const usable =
      certificateMatchesKey(kept.certPem, kept.keyPem) &&
      cert.verify(new X509Certificate(this.o.identity.caPem).publicKey) &&
      new Date(cert.validTo) > now &&
      new Date(cert.validFrom) >= new Date(held.validFrom);
    if (!usable) return false;
    this.use(kept);
    log('certificate.adopted', {
      previous_serial: serialOf(held),
      serial: serialOf(cert),
      not_after: new Date(cert.validTo).toISOString(),
    });
    return true;
  }

  private use(pair: CertificatePair): void {
    this.o.identity.certPem = pair.certPem;
    this.o.identity.keyPem = pair.keyPem;
    this.o.gateway.useCertificate(pair.certPem, pair.keyPem);
  }
}
