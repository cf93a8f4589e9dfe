// The store: the one owner of the SQLite database. It runs the migrations, wraps transactions and keeps the audit
// log, which every domain appends to; each domain's tables live in its own folder (see domain-tables.ts).
import type { Clock } from '../clock';
import { AuditLog } from './audit-log';
import { openDatabase, type Db } from './database';
import type { Migration } from './migrations';

export class Store {
  readonly audit: AuditLog;

  private constructor(
    readonly db: Db,
    clock: Clock,
  ) {
    this.audit = new AuditLog(db, clock);
  }

  static open(file: string, clock: Clock, migrations?: readonly Migration[]): Store {
    return new Store(openDatabase(file, migrations), clock);
  }

  /**
   * Runs fn in one transaction (IMMEDIATE, so concurrent writers queue instead of failing mid-way). While it holds
   * the write lock the audit log trusts the newest row it remembers; when it rolls back, the audit log forgets
   * that row, which may have been rolled back with it.
   */
  tx<T>(fn: () => T): T {
    const outermost = !this.db.inTransaction;
    try {
      return this.db
        .transaction(() => {
          if (outermost) this.audit.lockTaken();
          return fn();
        })
        .immediate();
    } catch (error) {
      this.audit.forgetLast();
      throw error;
    } finally {
      if (outermost) this.audit.lockReleased();
    }
  }

  /**
   * Runs fn with synchronous=NORMAL, then back to FULL: for bookkeeping whose loss in an OS crash costs nothing
   * because the next event writes it again (an agent's last-seen time, refreshed at every poll). Without it each
   * such write would wait for an fsync, and thousands of polling agents would queue behind the disk.
   */
  bookkeeping<T>(fn: () => T): T {
    // exec, not pragma(): the gateway switches at every request, and pragma() builds a statement object each time
    // (a PRAGMA's setting takes effect when it is compiled, so no compiled statement can be kept for it).
    this.db.exec('PRAGMA synchronous = NORMAL');
    try {
      return fn();
    } finally {
      this.db.exec('PRAGMA synchronous = FULL');
    }
  }

  /** Changes whenever another connection commits: lets long polls notice writes made by another process. */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
