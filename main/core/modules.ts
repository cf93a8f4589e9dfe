// THE list of the manager's domains, one line each: the manager builds their tables and services in this order (a
// module comes after every module whose services it reads), the console API is built from their routes and the
// store's schema from their migrations. Adding a domain is its folder under main/core (with module.ts) and a line here.
import type { BuiltBy, DomainModule, ModulesBefore } from './module';
import type { ManagerBase } from './manager';
import { migrations as ledger, type Migration } from './store/migrations';
import { systemModule } from './system/module';
import { keysModule } from './keys/module';
import { clustersModule } from './clusters/module';
import { accountsModule } from './accounts/module';
import { commandsModule } from './commands/module';
import { auditModule } from './audit/module';
import { settingsModule } from './settings/module';
import { profilesModule } from './profiles/module';
import { preflightModule } from './preflight/module';
import { approvalsModule } from './approvals/module';
import { lifecycleModule } from './lifecycle/module';
import { kubernetesModule } from './kubernetes/module';
import { hostsModule } from './hosts/module';
import { bundleModule } from './bundle/module';
import { certificatesModule } from './certificates/module';
import { caRotationModule } from './ca-rotation/module';
import { servicesModule } from './services/module';
import { driftModule } from './drift/module';
import { sheetModule } from './sheet/module';
import { supportModule } from './support/module';
import { backupsModule } from './backups/module';
import { reportsModule } from './reports/module';
import { catalogModule } from './catalog/module';
import { mirrorModule } from './mirror/module';

export const MODULES = [
  systemModule,
  keysModule,
  clustersModule,
  accountsModule,
  commandsModule,
  auditModule,
  settingsModule,
  profilesModule,
  preflightModule,
  approvalsModule,
  lifecycleModule,
  kubernetesModule,
  hostsModule,
  bundleModule,
  certificatesModule,
  caRotationModule,
  servicesModule,
  driftModule,
  sheetModule,
  supportModule,
  backupsModule,
  reportsModule,
  catalogModule,
  mirrorModule,
] as const;

/** What the module named N is handed to build its services: the base and what the modules before it built. */
export type BuiltBefore<N extends (typeof MODULES)[number]['name']> = ManagerBase & BuiltBy<ModulesBefore<typeof MODULES, N>>;

/** The store's schema: its ledger (1-16), then the modules' migrations, which the store runs in version order. */
export function schemaMigrations(modules: readonly DomainModule[] = MODULES): readonly Migration[] {
  return [...ledger, ...modules.flatMap((m) => m.migrations ?? [])];
}
