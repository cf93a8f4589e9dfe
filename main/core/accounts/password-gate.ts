// Bounded scrypt: at most `concurrency` password hashes run at once (libuv's thread pool, which file and DNS work
// share, keeps threads free) and at most `queue` wait; past that a password check is refused at once with
// rate_limited instead of making every login, the real ones included, wait behind a flood.
import { CoreError } from '../errors';

export const PASSWORD_CONCURRENCY = 2;
export const PASSWORD_QUEUE = 32;

export class PasswordGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private peakActive = 0;
  private peakWaiting = 0;

  constructor(
    readonly concurrency = PASSWORD_CONCURRENCY,
    readonly queue = PASSWORD_QUEUE,
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.queue)
        throw new CoreError('rate_limited', 'the manager is busy checking other passwords; try again in a moment', { retry_after_s: 1 });
      // The slot is handed over by the job that ends, so nothing can take it in between.
      const handedOver = new Promise<void>((resolve) => this.waiting.push(resolve));
      this.peakWaiting = Math.max(this.peakWaiting, this.waiting.length);
      await handedOver;
    } else {
      this.active++;
      this.peakActive = Math.max(this.peakActive, this.active);
    }
    try {
      return await job();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Now and at the most, for the operator's view and the tests. */
  stats(): { active: number; waiting: number; peakActive: number; peakWaiting: number } {
    return { active: this.active, waiting: this.waiting.length, peakActive: this.peakActive, peakWaiting: this.peakWaiting };
  }
}
