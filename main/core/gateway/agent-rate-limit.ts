// Requests per agent certificate at the gateway: every report, receipt and progress post is a write, and an
// agent (or a stolen key) posting in a loop grew the store and held the write lock without bound. The burst
// covers a plan's progress posts (two a task) and a batch of receipts; past it the agent is told when to retry.
import { RateLimiter, type RateDecision, type RateLimit } from '../http/rate-limit';

export const AGENT_RATE_LIMIT: RateLimit = { burst: 120, perMinute: 600 };

export class AgentThrottle {
  private readonly limiter: RateLimiter;

  constructor(limit: RateLimit = AGENT_RATE_LIMIT, now?: () => number) {
    this.limiter = new RateLimiter(limit, now);
  }

  /** One request of the certificate with this serial. */
  take(serial: string): RateDecision {
    return this.limiter.take(serial);
  }
}
