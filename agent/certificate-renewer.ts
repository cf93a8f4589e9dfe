// An agent renews its own client certificate before it expires: checked at start and then on a timer, due once two
// thirds of its life have passed (or within 14 days of its end). It makes a new key and a CSR, sends the CSR over
// its current mTLS connection, checks the answer (its key's certificate, issued by the CA it trusts), switches the
// pair in its identity folder and then every call to the new one. Any failure keeps the old pair for the next try.
import { X509Certificate } from 'node:crypto';
import { renewalDue } from '../main/wire/certificate-renewal';
import { certificateMatchesKey, stageKey, switchCertificate } from './certificate-files';
import { newKeyAndRequest } from './csr';
import type { CertificateChannel } from './gateway-client';
import type { CommonConfig, Identity } from './identity';
import { log } from './log';

/** How often the certificate's age is looked at: hourly is far finer than the two thirds of a life of days. */
export const RENEWAL_CHECK_MS = 3_600_000;

/** What an agent is given to renew its certificate: its identity folder, and a clock and period for tests. */
export interface RenewalOptions {
  /** The folder the identity was read from: the renewed pair is written there. */
  identityDir: string;
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

export type RenewalOutcome = 'renewed' | 'not_due' | 'standby' | 'failed';

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

  /** Renews when due; one renewal at a time (a check during one answers its outcome). */
  check(): Promise<RenewalOutcome> {
    this.running ??= this.renewIfDue().finally(() => (this.running = undefined));
    return this.running;
  }

  private async renewIfDue(): Promise<RenewalOutcome> {
    if (!this.o.isActive()) return 'standby';
    const { identity } = this.o;
    const current = new X509Certificate(identity.certPem);
    const now = this.o.now?.() ?? new Date();
    if (!renewalDue(new Date(current.validFrom), new Date(current.validTo), now)) return 'not_due';
    log('certificate.renewing', { serial: current.serialNumber.toLowerCase(), not_after: new Date(current.validTo).toISOString() });
    try {
      const { keyPem, csrPem } = newKeyAndRequest(this.o.commonName);
      stageKey(this.o.identityDir, keyPem);
      const answer = await this.o.gateway.renewCertificate(csrPem);
      const renewed = new X509Certificate(answer.certificate);
      if (!certificateMatchesKey(answer.certificate, keyPem)) throw new Error('the answered certificate is not the one of the new key');
      if (!renewed.verify(new X509Certificate(identity.caPem).publicKey))
        throw new Error('the answered certificate is not issued by the manager CA this agent trusts');
      switchCertificate(this.o.identityDir, answer.certificate, keyPem);
      identity.certPem = answer.certificate;
      identity.keyPem = keyPem;
      this.o.gateway.useCertificate(answer.certificate, keyPem);
      log('certificate.renewed', {
        previous_serial: current.serialNumber.toLowerCase(),
        serial: renewed.serialNumber.toLowerCase(),
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
}
