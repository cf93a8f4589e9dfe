// The liveness checks a node agent runs on its own: each watched unit's check every interval_s (one run at a
// time per unit), the latest outcome kept for the next report, and a report asked for at once when a unit's
// outcome changes between pass and fail, so the console sees an instance die within one interval.
import type { LivenessWatch } from '../../main/wire/node-agent';
import type { CheckOutcome } from '../../main/wire/service-checks';
import type { CheckHook } from './tasks';

export interface LivenessWatcherOptions {
  watches: () => Record<string, LivenessWatch>;
  runCheck: CheckHook;
  /** Called when a unit's outcome changed (or its first one arrived). */
  onChange: () => void;
  tickMs?: number;
}

export class LivenessWatcher {
  private timer: NodeJS.Timeout | undefined;
  private readonly latest = new Map<string, { at: number; outcome: CheckOutcome; command_id: string }>();
  private readonly running = new Set<string>();

  constructor(private readonly o: LivenessWatcherOptions) {}

  start(): void {
    this.timer ??= setInterval(() => this.tick(), this.o.tickMs ?? 1000);
    this.timer.unref();
    this.tick();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** How many units have an outcome kept. */
  get kept(): number {
    return this.latest.size;
  }

  /** The latest outcome of each unit still watched. */
  outcomes(): Record<string, CheckOutcome> {
    const watches = this.o.watches();
    return Object.fromEntries([...this.latest].filter(([unit]) => unit in watches).map(([unit, l]) => [unit, l.outcome]));
  }

  private tick(): void {
    const now = performance.now();
    const watches = this.o.watches();
    // A unit no longer watched (its service removed) is forgotten, not kept for the life of the agent.
    for (const unit of this.latest.keys()) if (!(unit in watches)) this.latest.delete(unit);
    for (const [unit, w] of Object.entries(watches)) {
      const last = this.latest.get(unit);
      // A watch replaced by a newer plan (a configuration, another port) is run at once, not after the old interval.
      const due = !last || last.command_id !== w.command_id || now - last.at >= w.interval_s * 1000;
      if (this.running.has(unit) || !due) continue;
      this.running.add(unit);
      void this.o
        .runCheck(w.check)
        .then((outcome) => {
          const before = this.latest.get(unit)?.outcome.status;
          this.latest.set(unit, { at: performance.now(), outcome, command_id: w.command_id });
          if (before !== outcome.status) this.o.onChange();
        })
        .finally(() => this.running.delete(unit));
    }
  }
}
