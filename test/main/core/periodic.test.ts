import { afterEach, describe, expect, it, vi } from 'vitest';
import { Periodic } from '../../../main/core/periodic';

describe('Periodic', () => {
  afterEach(() => vi.useRealTimers());

  it('runs a round every interval, goes on after a failed round, and stops', async () => {
    vi.useFakeTimers();
    let rounds = 0;
    const p = new Periodic(async () => {
      rounds++;
      if (rounds === 1) throw new Error('first round fails');
    });
    p.start(100);
    p.start(100); // a second start keeps the one timer
    await vi.advanceTimersByTimeAsync(350);
    expect(rounds).toBe(3);
    p.stop();
    await vi.advanceTimersByTimeAsync(500);
    expect(rounds).toBe(3);
  });
});
