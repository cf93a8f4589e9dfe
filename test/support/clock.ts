// A clock the test moves by hand.
import type { Clock } from '../../main/core/clock';

export class ManualClock implements Clock {
  constructor(private t: number = Date.parse('2026-12-02T10:00:00Z')) {}
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(iso: string): void {
    this.t = Date.parse(iso);
  }
}
