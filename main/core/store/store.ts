// The store: the one owner of the SQLite database. Every other module reaches the data through its tables.
import type { Clock } from '../clock';
import { AccountsTables } from './accounts-tables';
import { ApiTokensTable } from './api-tokens-table';
import { ApprovalsTable } from './approvals-table';
import { ServiceBackupsTables } from './service-backups-tables';
import { AuditLog } from './audit-log';
import { ClustersTable } from './clusters-table';
import { ClusterAccessTables } from './cluster-access-tables';
import { CommandsTables } from './commands-tables';
import { openDatabase, type Db } from './database';
import { DriftTables } from './drift-tables';
import { KeysTables } from './keys-tables';
import { LifecycleTables } from './lifecycle-tables';
import { HostsTables } from './hosts-tables';
import { HostMetricsTable } from './host-metrics-table';
import { MirrorTables } from './mirror-tables';
import type { Migration } from './migrations';
import { SqliteNonceStore } from './nonces-table';
import { ReportsTable } from './reports-table';
import { ServicesTables } from './services-tables';
import { SettingsTable } from './settings-table';

export class Store {
  readonly audit: AuditLog;
  readonly clusters: ClustersTable;
  readonly accounts: AccountsTables;
  readonly apiTokens: ApiTokensTable;
  readonly keys: KeysTables;
  readonly nonces: SqliteNonceStore;
  readonly clusterAccess: ClusterAccessTables;
  readonly commands: CommandsTables;
  readonly reports: ReportsTable;
  readonly settings: SettingsTable;
  readonly approvals: ApprovalsTable;
  readonly lifecycle: LifecycleTables;
  readonly hosts: HostsTables;
  readonly hostMetrics: HostMetricsTable;
  readonly mirror: MirrorTables;
  readonly services: ServicesTables;
  readonly drift: DriftTables;
  readonly serviceBackups: ServiceBackupsTables;

  private constructor(
    readonly db: Db,
    clock: Clock,
  ) {
    this.audit = new AuditLog(db, clock);
    this.clusters = new ClustersTable(db);
    this.accounts = new AccountsTables(db);
    this.apiTokens = new ApiTokensTable(db);
    this.keys = new KeysTables(db);
    this.nonces = new SqliteNonceStore(db);
    this.clusterAccess = new ClusterAccessTables(db);
    this.commands = new CommandsTables(db);
    this.reports = new ReportsTable(db);
    this.settings = new SettingsTable(db);
    this.approvals = new ApprovalsTable(db);
    this.lifecycle = new LifecycleTables(db);
    this.hosts = new HostsTables(db);
    this.hostMetrics = new HostMetricsTable(db);
    this.mirror = new MirrorTables(db);
    this.services = new ServicesTables(db);
    this.drift = new DriftTables(db);
    this.serviceBackups = new ServiceBackupsTables(db);
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
