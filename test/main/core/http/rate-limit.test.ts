// The token bucket behind the credential routes' limit: a burst, then a refill; its memory bounded.
import { expect, test } from 'vitest';
import { RateLimiter } from '../../../../main/core/http/rate-limit';

test('a burst passes, then one call per refill interval, with the wait announced', () => {
  let now = 0;
  const limiter = new RateLimiter({ burst: 3, perMinute: 6 }, () => now);
  expect([1, 2, 3].map(() => limiter.take('a').ok)).toEqual([true, true, true]);
  expect(limiter.take('a')).toEqual({ ok: false, retryAfterS: 10, first: true });
  expect(limiter.take('a')).toMatchObject({ ok: false, first: false });
  expect(limiter.take('b').ok).toBe(true);
  now += 10_000;
  expect(limiter.take('a').ok).toBe(true);
  expect(limiter.take('a')).toMatchObject({ ok: false, first: true });
});

test('past maxKeys the least recently seen source is forgotten', () => {
  const limiter = new RateLimiter({ burst: 1, perMinute: 1 }, () => 0, 2);
  limiter.take('a');
  limiter.take('b');
  limiter.take('c');
  // 'a' was forgotten, so it has its burst again; 'c' has not.
  expect(limiter.take('a').ok).toBe(true);
  expect(limiter.take('c').ok).toBe(false);
});
