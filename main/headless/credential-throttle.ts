// The per-source rate limit of the credential routes over HTTPS (login, second factor, login link, setup): a
// burst for the person who mistypes, then a trickle, so that one source cannot keep the password checks busy.
// Authenticated calls and /health are never counted here.
import { RateLimiter, type RateDecision, type RateLimit } from '../core/http/rate-limit';

export const CREDENTIAL_RATE_LIMIT: RateLimit = { burst: 20, perMinute: 20 };

export class CredentialThrottle {
  private readonly limiter: RateLimiter;

  constructor(limit: RateLimit = CREDENTIAL_RATE_LIMIT, now?: () => number) {
    this.limiter = new RateLimiter(limit, now);
  }

  take(remoteAddress: string | undefined): RateDecision & { source: string } {
    const source = sourceOf(remoteAddress);
    return { ...this.limiter.take(source), source };
  }
}

/**
 * The source a request counts against: its IPv4 address (also when IPv4-mapped), or the /64 of an IPv6 address,
 * since one host commonly holds a whole /64.
 */
export function sourceOf(remoteAddress: string | undefined): string {
  const a = (remoteAddress ?? 'unknown').replace(/^::ffff:(?=\d+\.)/i, '');
  if (!a.includes(':')) return a;
  const [head = '', tail] = a.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
