// Forwards every audit row to the syslog target, in order and at least once: the cursor (the last seq the
// target took) lives in the settings and moves only after a successful send, so rows written while the target
// is down, or before a crash, go out later. A receiver may see a row twice after a failure; seq and hash tell.
import type { Tables } from '../domain-tables';
import { hostname as osHostname } from 'node:os';
import type { SyslogForwarderStatus } from '../../contract/settings';
import type { Clock } from '../clock';
import type { Store } from '../store/store';
import { formatAuditRow } from './syslog-message';
import { SyslogSendError, sendSyslog, targetLabel } from './syslog-sender';
import { syslogTarget } from './syslog-settings';

export const SYSLOG_CURSOR_KEY = 'syslog_cursor';

/** The cursor names its target: a new target gets the whole log from the first row, so its chain is complete. */
interface Cursor {
  target: string;
  seq: number;
}

/** What the settings routes read; the Manager exposes it as `syslog` when a forwarder runs. */
export interface SyslogStatusSource {
  status(): SyslogForwarderStatus;
}

export interface SyslogForwarderDeps {
  store: Store;
  tables: Tables<'settings'>;
  clock: Clock;
  hostname?: string;
  intervalMs?: number;
  batchSize?: number;
  timeoutMs?: number;
  maxBackoffMs?: number;
}

export class SyslogForwarder implements SyslogStatusSource {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | null = null;
  private failures = 0;
  private retryAt = 0;
  private lastSuccessAt: string | null = null;
  private lastError: SyslogForwarderStatus['last_error'] = null;
  private readonly intervalMs: number;
  private readonly hostname: string;

  constructor(private readonly deps: SyslogForwarderDeps) {
    this.intervalMs = deps.intervalMs ?? 1000;
    this.hostname = deps.hostname ?? osHostname();
  }

  /** Wakes every interval; a wake with no target configured costs one settings read. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.current || performance.now() < this.retryAt) return;
      this.run().catch(() => undefined); // recorded in status(); retried after the backoff
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.current?.catch(() => undefined);
  }

  /** Sends everything pending now, ignoring the backoff; rejects with the send error if the target refuses. */
  async flush(): Promise<void> {
    while (this.current) await this.current.catch(() => undefined);
    await this.run();
  }

  status(): SyslogForwarderStatus {
    const target = syslogTarget(this.deps.tables);
    const label = target ? targetLabel(target) : null;
    const seq = label ? this.cursor(label) : 0;
    const wait = this.retryAt - performance.now();
    return {
      target: label,
      running: this.timer !== undefined,
      forwarded_seq: seq,
      pending: label ? Math.max(this.deps.store.audit.lastSeq() - seq, 0) : 0,
      last_success_at: this.lastSuccessAt,
      last_error: this.lastError,
      consecutive_failures: this.failures,
      retry_in_ms: this.failures > 0 && wait > 0 ? Math.round(wait) : null,
    };
  }

  private run(): Promise<void> {
    const p = this.pass().finally(() => {
      if (this.current === p) this.current = null;
    });
    this.current = p;
    return p;
  }

  private async pass(): Promise<void> {
    const { store, tables } = this.deps;
    const target = syslogTarget(tables);
    if (!target) return;
    const label = targetLabel(target);
    let seq = this.cursor(label);
    for (;;) {
      const rows = store.audit.since(seq, this.deps.batchSize ?? 200);
      if (rows.length === 0) return;
      try {
        await sendSyslog(
          target,
          rows.map((r) => formatAuditRow(r, { hostname: this.hostname })),
          this.deps.timeoutMs ?? 5000,
        );
      } catch (e) {
        const err = e instanceof SyslogSendError ? e : new SyslogSendError('EUNKNOWN', String(e));
        this.failures += 1;
        this.retryAt = performance.now() + Math.min(this.intervalMs * 2 ** (this.failures - 1), this.deps.maxBackoffMs ?? 60_000);
        this.lastError = { code: err.code, message: err.message, at: this.deps.clock.now().toISOString() };
        throw err;
      }
      seq = rows[rows.length - 1]!.seq;
      tables.settings.setJson(SYSLOG_CURSOR_KEY, { target: label, seq } satisfies Cursor);
      this.failures = 0;
      this.retryAt = 0;
      this.lastSuccessAt = this.deps.clock.now().toISOString();
    }
  }

  private cursor(label: string): number {
    const c = this.deps.tables.settings.getJson<Cursor>(SYSLOG_CURSOR_KEY);
    return c && c.target === label ? c.seq : 0;
  }
}
