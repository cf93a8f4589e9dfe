// A token bucket per key (the source address of a request): `burst` calls at once, then `perMinute` a minute.
// Bounded in memory: past `maxKeys` the least recently seen keys are forgotten.

export interface RateLimit {
  burst: number;
  perMinute: number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterS: number; first: boolean };

interface Bucket {
  tokens: number;
  at: number;
  /** Refused since the last call that was let through: only the first refusal of a run is reported as first. */
  limited: boolean;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
  ) {}

  take(key: string): RateDecision {
    const t = this.now();
    const perMs = this.limit.perMinute / 60_000;
    const b = this.buckets.get(key) ?? { tokens: this.limit.burst, at: t, limited: false };
    b.tokens = Math.min(this.limit.burst, b.tokens + (t - b.at) * perMs);
    b.at = t;
    this.buckets.delete(key);
    this.buckets.set(key, b);
    this.evict();
    if (b.tokens >= 1) {
      b.tokens -= 1;
      b.limited = false;
      return { ok: true };
    }
    const first = !b.limited;
    b.limited = true;
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000)), first };
  }

  /** The least recently seen key goes first (the map keeps the order in which keys were last touched). */
  private evict(): void {
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.maxKeys) return;
      this.buckets.delete(key);
    }
  }
}
