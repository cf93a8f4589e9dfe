// Part of the composition root: each domain's tables, built once on the store's database. A service is given
// only the tables it names (tablesFor), so what one domain reads of another's data shows in its constructor.
import type { Db } from './store/database';
import { AccountsTables } from './accounts/accounts-tables';
import { ApiTokensTable } from './accounts/api-tokens-table';
import { ApprovalsTable } from './approvals/approvals-table';
import { MirrorTables } from './bundle/mirror-tables';
import { ClusterAccessTables } from './clusters/cluster-access-tables';
import { ClustersTable } from './clusters/clusters-table';
import { CommandsTables } from './commands/commands-tables';
import { DriftTables } from './drift/drift-tables';
import { HostMetricsTable } from './hosts/host-metrics-table';
import { HostsTables } from './hosts/hosts-tables';
import { KeysTables } from './keys/keys-tables';
import { LifecycleTables } from './lifecycle/lifecycle-tables';
import { ReportsTable } from './reports/reports-table';
import { ServiceBackupsTables } from './services/service-backups-tables';
import { ServicesTables } from './services/services-tables';
import { SettingsTable } from './settings/settings-table';

export interface DomainTables {
  readonly accounts: AccountsTables;
  readonly apiTokens: ApiTokensTable;
  readonly approvals: ApprovalsTable;
  readonly mirror: MirrorTables;
  readonly clusters: ClustersTable;
  readonly clusterAccess: ClusterAccessTables;
  readonly commands: CommandsTables;
  readonly drift: DriftTables;
  readonly hosts: HostsTables;
  readonly hostMetrics: HostMetricsTable;
  readonly keys: KeysTables;
  readonly lifecycle: LifecycleTables;
  readonly reports: ReportsTable;
  readonly services: ServicesTables;
  readonly serviceBackups: ServiceBackupsTables;
  readonly settings: SettingsTable;
}

/** The tables a service reads or writes, named in its constructor: `Tables<'commands' | 'hosts'>`. */
export type Tables<K extends keyof DomainTables> = Pick<DomainTables, K>;

export function openDomainTables(db: Db): DomainTables {
  return {
    accounts: new AccountsTables(db),
    apiTokens: new ApiTokensTable(db),
    approvals: new ApprovalsTable(db),
    mirror: new MirrorTables(db),
    clusters: new ClustersTable(db),
    clusterAccess: new ClusterAccessTables(db),
    commands: new CommandsTables(db),
    drift: new DriftTables(db),
    hosts: new HostsTables(db),
    hostMetrics: new HostMetricsTable(db),
    keys: new KeysTables(db),
    lifecycle: new LifecycleTables(db),
    reports: new ReportsTable(db),
    services: new ServicesTables(db),
    serviceBackups: new ServiceBackupsTables(db),
    settings: new SettingsTable(db),
  };
}

/** Only the named tables: a service handed them cannot reach the others. */
export function tablesFor<K extends keyof DomainTables>(all: DomainTables, ...names: K[]): Tables<K> {
  return Object.fromEntries(names.map((name) => [name, all[name]])) as Tables<K>;
}
