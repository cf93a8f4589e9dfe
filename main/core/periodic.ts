// A background round run every so often in the manager that serves (the drift scan, the renewal look): one timer
// that never holds the process open, and a failed round that never stops the ones after it.

export class Periodic {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly round: () => Promise<unknown>) {}

  /** Starts the rounds every `intervalMs`; a second start keeps the timer already running. */
  start(intervalMs: number): void {
    this.timer ??= setInterval(() => void this.round().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
