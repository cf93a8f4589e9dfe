// THE list of the manager's domains, one line each: the console API is built from their routes and the store's
// schema from their migrations. Adding a domain is its folder under main/core (with module.ts) and a line here.
import type { DomainModule } from './module';
import { migrations as ledger, type Migration } from './store/migrations';
import { systemModule } from './system/module';
import { accountsModule } from './accounts/module';
import { clustersModule } from './clusters/module';
import { kubernetesModule } from './kubernetes/module';
import { commandsModule } from './commands/module';
import { auditModule } from './audit/module';
import { reportsModule } from './reports/module';
import { keysModule } from './keys/module';
import { profilesModule } from './profiles/module';
import { approvalsModule } from './approvals/module';
import { backupsModule } from './backups/module';
import { settingsModule } from './settings/module';
import { hostsModule } from './hosts/module';
import { servicesModule } from './services/module';
import { sheetModule } from './sheet/module';
import { driftModule } from './drift/module';
import { supportModule } from './support/module';
import { catalogModule } from './catalog/module';
import { mirrorModule } from './mirror/module';
import { certificatesModule } from './certificates/module';

export const MODULES: readonly DomainModule[] = [
  systemModule,
  accountsModule,
  clustersModule,
  kubernetesModule,
  commandsModule,
  auditModule,
  reportsModule,
  keysModule,
  profilesModule,
  approvalsModule,
  backupsModule,
  settingsModule,
  hostsModule,
  servicesModule,
  sheetModule,
  driftModule,
  supportModule,
  catalogModule,
  mirrorModule,
  certificatesModule,
];

/** The store's schema: its ledger (1-16), then the modules' migrations, which the store runs in version order. */
export function schemaMigrations(modules: readonly DomainModule[] = MODULES): readonly Migration[] {
  return [...ledger, ...modules.flatMap((m) => m.migrations ?? [])];
}
