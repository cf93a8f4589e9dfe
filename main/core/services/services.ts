// Services of hosts clusters: install, configure, start, stop, restart, uninstall, check and test a catalog
// service, each through the lifecycle gate and as an operation of signed plans, phase after phase. The operation
// advances when its plans' receipts arrive (and at start, for those that arrived while the manager was down);
// the check outcomes the agents report become the service's latest liveness, readiness and functional results.
// Starting an operation is operation-start.ts, its advance operation-machine.ts, its views service-views.ts.
import type { PublicUser } from '../accounts/accounts';
import type { UpgradeAnswer } from '../../contract/services';
import type { Catalog } from '../catalog/catalog';
import { ConflictError, CoreError, found, ValidationError } from '../errors';
import type { ConfigVersionRecord, ServiceRecord } from './services-tables';
import type { ServiceBackupRecord } from './service-backups-tables';
import { recordLiveness } from './check-results';
import { advanceOperation } from './operation-machine';
import { startOperation, type OperationTarget } from './operation-start';
import { RENEWAL_ACTION } from './renewal-plan';
import { RenewalSchedule } from './renewal-schedule';
import {
  checkedSettings,
  installedService,
  requireCatalog,
  resolveHosts,
  type ActionRequest,
  type ApprovalRequest,
  type ConfigureRequest,
  type InstallRequest,
  type UpgradeRequest,
} from './service-input';
import { operationView, serviceView, type OperationView, type ServiceView } from './service-views';
import type { ServicesDeps } from './services-deps';
import { refuseTlsMigration, TLS_ENABLE } from './tls-migration';

export type { ServicesDeps } from './services-deps';
export type { OperationView, ServiceView } from './service-views';

/** What an operation is started with, but the deps every one shares. */
type StartArgs = Parameters<typeof startOperation> extends [ServicesDeps, ...infer Rest] ? Rest : never;

export class Services {
  private readonly unsubscribe: () => void;
  /** The schedule that renews the services' certificates at two thirds of their life (renewal-schedule.ts). */
  readonly renewals: RenewalSchedule;

  constructor(private readonly d: ServicesDeps) {
    this.unsubscribe = d.events.subscribe((e) => {
      if (e.type === 'host.liveness') return recordLiveness(d, e.data);
      if (e.type !== 'command.changed') return;
      const { id, host_id } = e.data;
      if (!id || !host_id) return;
      for (const op of d.tables.services.running()) if (op.plans.some((p) => p.command_id === id)) advanceOperation(d, op.id);
    });
    // Receipts that arrived while the manager was down: the operations they end advance now.
    for (const op of d.tables.services.running()) advanceOperation(d, op.id);
    this.renewals = new RenewalSchedule({
      ...d,
      start: async (clusterId, service, hostIds) => (await this.renewCertificates(clusterId, service, hostIds)).id,
    });
  }

  close(): void {
    this.renewals.stopSchedule();
    this.unsubscribe();
  }

  private catalog(): Catalog {
    return requireCatalog(this.d.catalog);
  }

  list(clusterId: string): ServiceView[] {
    this.d.hosts.hostsCluster(clusterId);
    return this.d.tables.services.list(clusterId).map((r) => serviceView(this.d, r));
  }

  get(clusterId: string, service: string): ServiceView {
    this.d.hosts.hostsCluster(clusterId);
    return serviceView(this.d, this.record(clusterId, service));
  }

  operations(clusterId: string, service: string | null, limit = 20): OperationView[] {
    this.d.hosts.hostsCluster(clusterId);
    return this.d.tables.services
      .operations(clusterId, service, Math.min(Math.max(Math.trunc(limit) || 20, 1), 200))
      .map((o) => operationView(this.d, o));
  }

  operation(id: string): OperationView {
    const o = found(this.d.tables.services.operation(id), 'operation', id);
    return operationView(this.d, o);
  }

  /** What an operation on an installed service works on: its version, hosts and settings as recorded. */
  private target(r: ServiceRecord): OperationTarget {
    return { service: r.service, version: r.version, hosts: r.hosts.map((id) => this.d.hosts.get(id)), config: r.config };
  }

  private record(clusterId: string, service: string): ServiceRecord {
    return installedService(this.d.tables, clusterId, service);
  }

  /** Installs a catalog service on hosts of the cluster: `{service, version, hosts, config?, approval_id?}`. */
  async install(clusterId: string, body: InstallRequest, user: PublicUser): Promise<OperationView> {
    this.d.hosts.hostsCluster(clusterId);
    const catalog = this.catalog();
    if (!catalog.service(body.service))
      throw new ValidationError('service', `service is one of the catalog's: ${catalog.services.map((s) => s.service).join(', ')}`);
    const service = body.service;
    if (!catalog.version(service, body.version))
      throw new ValidationError(
        'version',
        `version is one of ${catalog
          .service(service)!
          .versions.map((v) => v.version)
          .join(', ')}`,
      );
    const existing = this.d.tables.services.get(clusterId, service);
    if (existing && existing.state !== 'failed')
      throw new ConflictError('service_installed', `${service} ${existing.version} is installed already (${existing.state})`);
    const hosts = resolveHosts(this.d.tables, clusterId, body.hosts);
    const config = checkedSettings(catalog, service, body.config);
    return this.start(clusterId, 'install', { service, version: body.version, hosts, config, tls: body.tls }, user, body.approval_id);
  }

  /** Whether the installed service serves TLS: it holds certificates of the cluster's service CA (service-tls.ts). */
  tlsEnabled(clusterId: string, service: string): boolean {
    return this.d.certificates.inUse(clusterId, service).length > 0;
  }

  /**
   * Moves the installed plaintext service to TLS in place, host by host, its data kept (tls-migration.ts): allowed
   * under any profile, refused when the service serves TLS already or does not support it.
   */
  async enableTls(clusterId: string, service: string, body: ApprovalRequest, user: PublicUser): Promise<OperationView> {
    this.d.hosts.hostsCluster(clusterId);
    const r = this.record(clusterId, service);
    if (!this.catalog().service(service)?.supports_tls) throw new CoreError('tls_unsupported', `${service} does not support TLS`);
    if (this.tlsEnabled(clusterId, service)) throw new CoreError('tls_already_enabled', `${service} serves TLS already`);
    refuseTlsMigration(service, r.hosts.length);
    return this.start(clusterId, TLS_ENABLE, this.target(r), user, body.approval_id);
  }

  /** Writes a new configuration (settings) to every instance, restarts them and checks them. */
  async configure(clusterId: string, service: string, body: ConfigureRequest, user: PublicUser): Promise<OperationView> {
    this.d.hosts.hostsCluster(clusterId);
    const r = this.record(clusterId, service);
    const config = checkedSettings(this.catalog(), service, body.config);
    return this.start(clusterId, 'configuration', { ...this.target(r), config }, user, body.approval_id);
  }

  /** The configuration versions of an installed service, newest first (a rollback's says which it restored). */
  configVersions(clusterId: string, service: string): ConfigVersionRecord[] {
    this.d.hosts.hostsCluster(clusterId);
    this.record(clusterId, service);
    return this.d.tables.services.configVersions(clusterId, service);
  }

  /** What an upgrade of the service to `to` involves: the catalog's answer for its installed version. */
  upgradeInfo(clusterId: string, service: string, to: string): UpgradeAnswer {
    this.d.hosts.hostsCluster(clusterId);
    const r = this.record(clusterId, service);
    return this.catalog().upgrade(service, r.version, to);
  }

  /** Upgrades the service canary first, its rollback sealed before anything runs: `{version, approval_id?}`. */
  async upgrade(clusterId: string, service: string, body: UpgradeRequest, user: PublicUser): Promise<OperationView> {
    const answer = this.upgradeInfo(clusterId, service, body.version);
    if (!answer.compatible) throw new CoreError('upgrade_incompatible', answer.problems.join('; '), { problems: answer.problems });
    const r = this.record(clusterId, service);
    return this.start(clusterId, 'upgrade', { ...this.target(r), version: answer.to, from: r.version }, user, body.approval_id);
  }

  /**
   * Brings back the version the last upgrade started from, with its files and units, host by host. Refused with
   * the reason when the catalog says it cannot be done or an irreversible migration was applied.
   */
  async rollback(clusterId: string, service: string, body: ApprovalRequest, user: PublicUser): Promise<OperationView> {
    this.d.hosts.hostsCluster(clusterId);
    const r = this.record(clusterId, service);
    const last = this.d.tables.services
      .operations(clusterId, service, 200)
      .find((o) => (o.action === 'upgrade' || o.action === 'rollback') && o.state === 'succeeded');
    if (!last || last.action !== 'upgrade' || last.version !== r.version || !last.from_version)
      throw new CoreError(
        'rollback_refused',
        `${service} ${r.version} was not reached by an upgrade of the console: there is nothing to roll back to`,
      );
    const answer = this.catalog().upgrade(service, last.from_version, r.version);
    const reason =
      answer.rollback && !answer.rollback.possible
        ? answer.rollback.reason
        : answer.irreversible.length > 0
          ? `the irreversible migrations ${answer.irreversible.join(', ')} were applied`
          : null;
    if (reason) {
      // The way back then is the restore of the backup the upgrade took first: the previous version and its data.
      const backup = last.backup_set_id ? this.d.tables.serviceBackups.backup(last.backup_set_id, service) : undefined;
      throw new CoreError('rollback_refused', `${service} cannot go back to ${last.from_version}: ${reason}`, {
        reason,
        restore: backup
          ? { offered: true, backup_set_id: backup.set_id, version: backup.version, taken_at: backup.created_at }
          : { offered: false, why: 'no backup was taken before the upgrade' },
      });
    }
    // The configuration that stood when the upgrade started comes back too, recorded as a new version.
    const before = this.d.tables.services.configVersions(clusterId, service).find((v) => v.created_at <= last.created_at);
    return this.start(
      clusterId,
      'rollback',
      { ...this.target(r), ...(before ? { config: before.config } : {}), version: last.from_version, from: r.version },
      user,
      body.approval_id,
      { restoredConfig: before?.number },
    );
  }

  /** Writes the service again as the console last configured it (binaries, files, unit), then checks it: drift's realign. */
  async realign(clusterId: string, service: string, user: PublicUser, approvalId?: string): Promise<OperationView> {
    this.d.hosts.hostsCluster(clusterId);
    const r = this.record(clusterId, service);
    return this.start(clusterId, 'realign', this.target(r), user, approvalId);
  }

  /** start, stop, restart, uninstall, functional_test (the functional test alone) or check (every check now). */
  async action(clusterId: string, service: string, body: ActionRequest, user: PublicUser): Promise<OperationView> {
    this.d.hosts.hostsCluster(clusterId);
    const r = this.record(clusterId, service);
    return this.start(clusterId, body.action, this.target(r), user, body.approval_id);
  }

  /**
   * Runs every check of every installed service of the cluster now (liveness on each host, readiness, the
   * functional test) and waits for them, at most `timeoutMs`: what an acceptance report reads. A service with an
   * operation still running is not checked again; its latest results stand.
   */
  async checkAll(clusterId: string, actor: string, timeoutMs = 120_000): Promise<ServiceView[]> {
    const started: string[] = [];
    for (const r of this.d.tables.services.list(clusterId)) {
      if (r.state === 'installing' || r.state === 'uninstalling' || this.d.tables.services.runningFor(clusterId, r.service)) continue;
      started.push((await this.start(clusterId, 'check', this.target(r), { id: actor, name: actor }, undefined)).id);
    }
    const deadline = performance.now() + timeoutMs;
    while (started.some((id) => this.d.tables.services.operation(id)?.state === 'running') && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    return this.d.tables.services.list(clusterId).map((r) => serviceView(this.d, r));
  }

  /** What the newest successful install of the service's version fetched on each host (for the report's source line). */
  fetched(clusterId: string, service: string): { host: string; path: string; digest: string; url: string }[] {
    const r = this.d.tables.services.get(clusterId, service);
    const install = this.d.tables.services
      .operations(clusterId, service, 200)
      .find((o) => o.action === 'install' && o.state === 'succeeded' && o.version === r?.version);
    if (!install) return [];
    const names = new Map(this.d.tables.hosts.list(clusterId).map((h) => [h.id, h.name]));
    // Only the install phase fetches (after the certificates phase, with TLS).
    return install.plans
      .filter((p) => install.phases[p.phase]?.name === 'install')
      .flatMap((p) =>
        this.d.hostCommands
          .plan(p.command_id)
          .tasks.filter((t) => t.kind === 'artifact.fetch' && t.status === 'succeeded' && t.output)
          .map((t) => ({
            host: names.get(p.host_id) ?? p.host_id,
            path: String(t.output!.path),
            digest: String(t.output!.digest),
            url: String(t.output!.url),
          })),
      );
  }

  /** The manager's renewal of the service's certificates due on these hosts, one host at a time (renewal-plan.ts). */
  async renewCertificates(clusterId: string, service: string, hostIds: string[]): Promise<OperationView> {
    const r = this.record(clusterId, service);
    const manager = { id: 'manager', name: 'manager' };
    return this.start(clusterId, RENEWAL_ACTION, this.target(r), manager, undefined, { renewHosts: hostIds, gate: false });
  }

  /** A backup of the service under an existing set (the backups module runs a set's services one by one). */
  async backup(clusterId: string, service: string, setId: string, user: Pick<PublicUser, 'id' | 'name'>): Promise<OperationView> {
    const r = this.record(clusterId, service);
    return this.start(clusterId, 'backup', this.target(r), user, undefined, { backupSetId: setId, gate: false });
  }

  /**
   * The restore of a backup into the version it was taken in; `rewrite` when the service runs another version now
   * (the restore a refused rollback offers), whose files and unit are then written back too.
   */
  async restore(
    clusterId: string,
    backup: ServiceBackupRecord,
    user: PublicUser,
    approvalId: string | undefined,
    rewrite: boolean,
  ): Promise<OperationView> {
    const r = this.record(clusterId, backup.service);
    return this.start(clusterId, 'restore', { ...this.target(r), version: backup.version, from: r.version }, user, approvalId, {
      backupSetId: backup.set_id,
      restore: { backup, rewrite },
    });
  }

  /** startOperation with these services' deps, answering the operation's view. */
  private async start(...args: StartArgs): Promise<OperationView> {
    return this.operation(await startOperation(this.d, ...args));
  }
}
