// Fault hooks: added latency, the next N requests failed with a Status, every open connection dropped.
import type { Duplex } from 'node:stream';
import { injected } from './status.js';
import type { StatusError } from './status.js';

export interface FailOptions {
  /** Only requests this accepts count (and fail); others pass. */
  match?: (request: { method: string; path: string }) => boolean;
  /** 429 only: the Retry-After header and details.retryAfterSeconds (default 1). */
  retryAfterSeconds?: number;
}

export interface Faults {
  /** Destroys every open connection, held watches included; the server keeps listening. */
  dropConnections(): void;
  /** Delay before each request is handled (0 to stop). */
  setLatency(ms: number): void;
  /** Answers the next `n` requests with a Status of this code (429, 500 and 503 as the real server shapes them). */
  failNext(n: number, status: number, options?: FailOptions): void;
  /** Clears latency and pending failures. */
  reset(): void;
}

export class FaultInjector implements Faults {
  readonly sockets = new Set<Duplex>();
  private latencyMs = 0;
  private failures: { left: number; code: number; options: FailOptions }[] = [];

  track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  dropConnections(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  setLatency(ms: number): void {
    this.latencyMs = Math.max(0, ms);
  }

  failNext(n: number, status: number, options: FailOptions = {}): void {
    if (n > 0) this.failures.push({ left: n, code: status, options });
  }

  reset(): void {
    this.latencyMs = 0;
    this.failures = [];
  }

  async delay(): Promise<void> {
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
  }

  /** The injected failure this request gets, if any (consumes one). */
  take(method: string, path: string): StatusError | undefined {
    const f = this.failures.find((x) => !x.options.match || x.options.match({ method, path }));
    if (!f) return undefined;
    if (--f.left <= 0) this.failures.splice(this.failures.indexOf(f), 1);
    return injected(f.code, f.options.retryAfterSeconds);
  }
}
