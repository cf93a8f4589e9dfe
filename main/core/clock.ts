// Time is passed in, so that expiry, lock-out and validity windows can be tested with a controlled clock.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** RFC 3339 UTC with millisecond precision, the one timestamp format of the store and the API. */
export const isoNow = (clock: Clock): string => clock.now().toISOString();
