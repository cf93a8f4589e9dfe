// The manager's renewal schedule: at each tick, the service certificates past two thirds of their life (what the
// manager's clock says is due) each start one renewal operation of their service, never two at once for a
// service; a renewal that failed or was refused is tried again at a later tick, after a backoff that doubles, and
// the tick says why it waits.
import type { Certificates } from '../certificates/certificates';
import type { RenewalDecision } from '../../contract/certificates';
import { dueRenewals, type DueRenewal } from '../certificates/renewal-due';
import type { Clock } from '../clock';
import { CoreError } from '../errors';
import { Periodic } from '../periodic';
import type { Tables } from '../domain-tables';
import type { Store } from '../store/store';
import { RENEWAL_ACTION } from './renewal-plan';

export type { RenewalDecision };

/** How often the schedule looks: certificates live 90 days and are renewed after 60, so an hour is early enough. */
export const RENEWAL_CHECK_INTERVAL_MS = 3600_000;
/** The wait after a first failure, doubled after each one that follows, up to a day. */
export const RENEWAL_BACKOFF_MS = 10 * 60_000;
export const RENEWAL_MAX_BACKOFF_MS = 24 * 3600_000;

/** How long the schedule waits after `failures` renewals of a service failed in a row. */
export const renewalBackoffMs = (failures: number): number =>
  failures <= 0 ? 0 : Math.min(RENEWAL_BACKOFF_MS * 2 ** (failures - 1), RENEWAL_MAX_BACKOFF_MS);

export interface RenewalScheduleDeps {
  certificates: Pick<Certificates, 'dueForRenewal'>;
  tables: Tables<'services'>;
  clock: Clock;
  store: Pick<Store, 'audit'>;
  /** Starts the renewal of the certificates due on these hosts of the service; the operation's id. */
  start: (clusterId: string, service: string, hostIds: string[]) => Promise<string>;
}

interface Refusal {
  at: string;
  reason: string;
}

export class RenewalSchedule {
  private readonly schedule = new Periodic(() => this.tick());
  private ticking = false;
  /** Starts refused (no operation to remember them by), by service, in a row: forgotten once one starts. */
  private readonly refusals = new Map<string, Refusal[]>();

  constructor(private readonly d: RenewalScheduleDeps) {}

  /** Looks every `intervalMs` in this process (the manager that serves), as the drift scan does. */
  startSchedule(intervalMs = RENEWAL_CHECK_INTERVAL_MS): void {
    this.schedule.start(intervalMs);
  }

  stopSchedule(): void {
    this.schedule.stop();
  }

  /**
   * One look: what is due at `now` (the manager's clock by default) and, for each service, its renewal started or
   * the reason it was not. A tick while another is under way decides nothing.
   */
  async tick(now: Date = this.d.clock.now()): Promise<RenewalDecision[]> {
    if (this.ticking) return [];
    this.ticking = true;
    try {
      const decisions: RenewalDecision[] = [];
      for (const due of dueRenewals(this.d.certificates.dueForRenewal(now))) decisions.push(await this.decide(due, now));
      return decisions;
    } finally {
      this.ticking = false;
    }
  }

  private async decide(due: DueRenewal, now: Date): Promise<RenewalDecision> {
    const { cluster_id, service } = due;
    const key = `${cluster_id}\u0000${service}`;
    const record = this.d.tables.services.get(cluster_id, service);
    // Only the hosts the service runs on now: a certificate of a host it left is not renewed there.
    const hosts = due.host_ids.filter((id) => record?.hosts.includes(id));
    const base = { cluster_id, service, hosts };
    if (!record || hosts.length === 0) return { ...base, outcome: 'skipped', reason: `${service} is not installed on those hosts` };
    // A renewal restarts the service: one stopped or failed stays as it is until someone starts it again.
    if (record.state !== 'running') return { ...base, outcome: 'skipped', reason: `${service} is ${record.state}, not running` };
    const running = this.d.tables.services.runningFor(cluster_id, service);
    if (running)
      return { ...base, outcome: 'running', operation_id: running.id, reason: `an operation (${running.action}) is running on ${service}` };
    const failed = this.failures(cluster_id, service, key);
    if (failed.count > 0) {
      const retryAt = new Date(Date.parse(failed.at) + renewalBackoffMs(failed.count));
      if (now < retryAt) return { ...base, outcome: 'waiting', reason: failed.reason, retry_at: retryAt.toISOString() };
    }
    try {
      const id = await this.d.start(cluster_id, service, hosts);
      this.refusals.delete(key);
      return { ...base, outcome: 'started', operation_id: id };
    } catch (error) {
      if (!(error instanceof CoreError)) throw error;
      const reason = `${error.code}: ${error.message}`;
      this.refusals.set(key, [...(this.refusals.get(key) ?? []), { at: this.d.clock.now().toISOString(), reason }]);
      this.d.store.audit.append({
        actor: 'manager',
        action: 'service.certificates_renewal_refused',
        cluster_id,
        target: service,
        details: { hosts, code: error.code, message: error.message },
      });
      return { ...base, outcome: 'refused', reason };
    }
  }

  /**
   * The renewals of the service that failed in a row, newest first until one that succeeded, with the refused
   * starts since: how many, when the last ended and why.
   */
  private failures(clusterId: string, service: string, key: string): { count: number; at: string; reason: string } {
    let count = 0;
    let last: { at: string; reason: string } | null = null;
    for (const o of this.d.tables.services.operations(clusterId, service, 50)) {
      if (o.action !== RENEWAL_ACTION) continue;
      if (o.state !== 'failed') break;
      count++;
      last ??= {
        at: o.finished_at ?? o.created_at,
        reason: `${o.code ?? 'failed'}: ${o.message ?? 'the renewal failed'} (operation ${o.id})`,
      };
    }
    const refused = this.refusals.get(key) ?? [];
    const newest = refused.at(-1);
    if (newest && (!last || newest.at >= last.at)) last = newest;
    return { count: count + refused.length, at: last?.at ?? '', reason: last?.reason ?? '' };
  }
}
