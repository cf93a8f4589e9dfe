// Leader election on the Lease navin-cluster-agent: only the holder acts. Every write carries the
// resourceVersion read, so two replicas cannot both win; a failed renewal stops acting at once, and so does
// reaching the lease's own expiry without a renewal.
import {
  CoordinationV1Api,
  type ConfigurationOptions,
  type KubeConfig,
  type ObservableMiddleware,
  type V1Lease,
} from '@kubernetes/client-node';
import { deadline } from './kube-deadline';
import { log } from './log';

export interface LeaseElectorOptions {
  kc: KubeConfig;
  namespace: string;
  name: string;
  identity: string;
  leaseDurationS: number;
  now?: () => Date;
}

const httpCode = (e: unknown): number | undefined => {
  const c = (e as { code?: unknown })?.code;
  return typeof c === 'number' ? c : undefined;
};

export class LeaseElector {
  private readonly api: CoordinationV1Api;
  private leader = false;
  private timer: NodeJS.Timeout | undefined;
  private expiry: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The lease record as last read, and when (monotonic) it was first read so. */
  private observed: { record: string; at: number } | undefined;
  private readonly listeners = new Set<(leader: boolean) => void>();
  private readonly now: () => Date;

  constructor(private readonly opts: LeaseElectorOptions) {
    this.api = opts.kc.makeApiClient(CoordinationV1Api);
    this.now = opts.now ?? (() => new Date());
  }

  isLeader(): boolean {
    return this.leader;
  }

  onChange(listener: (leader: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.expiry);
    this.set(false, 'stopped');
  }

  private set(leader: boolean, reason: string): void {
    if (leader === this.leader) return;
    this.leader = leader;
    log(leader ? 'leader.acquired' : 'leader.lost', { lease: this.opts.name, replica: this.opts.identity, reason });
    for (const l of this.listeners) l(leader);
  }

  /** `sentAt`: when the write was sent; the others count the lease's duration from when they saw it, never earlier. */
  private renewed(sentAt = performance.now()): void {
    clearTimeout(this.expiry);
    // Without a renewal before our own lease runs out, stop acting: another replica may take over then.
    const left = this.opts.leaseDurationS * 1000 - 1000 - (performance.now() - sentAt);
    this.expiry = setTimeout(() => this.set(false, 'renewal_deadline_passed'), Math.max(0, left));
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.attempt();
    } catch (error) {
      if (this.leader) this.set(false, `renewal_failed: ${httpCode(error) ?? (error as Error).message}`);
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), (this.opts.leaseDurationS * 1000) / (this.leader ? 3 : 5));
  }

  /** Each call is bounded by the renewal period, so a hung API server cannot stop the ticks. */
  private call(): ConfigurationOptions<ObservableMiddleware> {
    return deadline((this.opts.leaseDurationS * 1000) / 3);
  }

  private spec(previous?: V1Lease['spec']): NonNullable<V1Lease['spec']> {
    const now = this.now();
    const taking = previous?.holderIdentity !== this.opts.identity;
    return {
      holderIdentity: this.opts.identity,
      leaseDurationSeconds: this.opts.leaseDurationS,
      acquireTime: taking ? now : (previous?.acquireTime ?? now),
      renewTime: now,
      leaseTransitions: (previous?.leaseTransitions ?? 0) + (taking && previous ? 1 : 0),
    };
  }

  private async attempt(): Promise<void> {
    const { namespace, name, identity } = this.opts;
    let lease: V1Lease;
    try {
      lease = await this.api.readNamespacedLease({ name, namespace }, this.call());
    } catch (error) {
      if (httpCode(error) !== 404) throw error;
      try {
        const sentAt = performance.now();
        await this.api.createNamespacedLease({ namespace, body: { metadata: { name, namespace }, spec: this.spec() } }, this.call());
        this.renewed(sentAt);
        this.set(true, 'created');
      } catch (e) {
        if (httpCode(e) !== 409) throw e;
      }
      return;
    }
    const spec = lease.spec ?? {};
    const mine = spec.holderIdentity === identity;
    // Expiry is judged on this replica's own clock, as client-go does: a lease is expired once its record has not
    // changed for its duration since this replica first saw it so. Reading the holder's renewTime against the
    // local wall clock let a replica with a skewed clock take a lease still being renewed, or never take one.
    const record = `${String(spec.holderIdentity)}|${String(spec.renewTime)}|${String(lease.metadata?.resourceVersion)}`;
    if (this.observed?.record !== record) this.observed = { record, at: performance.now() };
    const expired =
      !spec.holderIdentity || performance.now() - this.observed.at > (spec.leaseDurationSeconds ?? this.opts.leaseDurationS) * 1000;
    if (!mine && !expired) {
      this.set(false, `held_by ${spec.holderIdentity}`);
      return;
    }
    const sentAt = performance.now();
    try {
      await this.api.replaceNamespacedLease({ name, namespace, body: { ...lease, spec: this.spec(spec) } }, this.call());
      this.renewed(sentAt);
      this.set(true, mine ? 'renewed' : 'taken_over');
    } catch (error) {
      if (httpCode(error) === 409) {
        this.set(false, 'conflict');
        return;
      }
      throw error;
    }
  }
}
