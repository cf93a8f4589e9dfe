// Services of hosts clusters: install, configure, start, stop, restart, uninstall, check and test a catalog
// service, each through the lifecycle gate and as an operation of signed plans, phase after phase. The operation
// advances when its plans' receipts arrive (and at start, for those that arrived while the manager was down);
// the check outcomes the agents report become the service's latest liveness, readiness and functional results.
import { randomUUID } from 'node:crypto';
import type { PublicUser } from '../accounts/accounts';
import type { Catalog, UpgradeAnswer } from '../catalog/catalog';
import { settingProblem } from '../catalog/setting-types';
import type { Clock } from '../clock';
import { ConflictError, CoreError, NotFoundError, ValidationError } from '../errors';
import type { CoreEvents } from '../events';
import { commandEnded, type HostCommands, type PlanView } from '../hosts/host-commands';
import type { Hosts } from '../hosts/hosts';
import type { Lifecycle } from '../lifecycle/lifecycle';
import { operationChange } from '../lifecycle/actions';
import type { HostRecord } from '../store/hosts-tables';
import type {
  ConfigVersionRecord,
  OperationRecord,
  ServiceCheckResults,
  ServiceRecord,
  ServiceSettings,
  ServiceState,
} from '../store/services-tables';
import type { Store } from '../store/store';
import type { PlanArgs, PlanResult, TaskOutcome } from '../../wire/plan';
import type { CheckOutcome } from '../../wire/service-checks';
import { parseTimestamp } from '../../wire/timestamps';
import type { ServiceBackupRecord } from '../store/service-backups-tables';
import type { OperationPhase } from '../store/services-tables';
import { BACKUP_PHASE, backupDir, backupFiles, backupPhase, RESTART_PHASE, restartAfterFailedBackup, restorePhases } from './backup-plan';
import { operationPhases, rollingPhases, SERVICE_ACTIONS, type OperationAction, type PlanHost, type ServiceAction } from './service-plan';

export interface ServicesDeps {
  store: Store;
  clock: Clock;
  catalog: () => Catalog | null;
  hosts: Hosts;
  hostCommands: HostCommands;
  lifecycle: Lifecycle;
  events: CoreEvents;
}

export interface OperationView {
  id: string;
  cluster_id: string;
  service: string;
  action: string;
  version: string;
  state: OperationRecord['state'];
  code: string | null;
  message: string | null;
  phase: number;
  phases: { name: string; hosts: string[]; plans: (PlanView & { host_name: string })[] }[];
  /** Tasks done of all the operation's tasks, for a progress bar. */
  progress: { done: number; total: number };
  requested_by: string;
  created_at: string;
  finished_at: string | null;
}

export interface ServiceView {
  service: string;
  title: string;
  version: string;
  state: ServiceState;
  hosts: { id: string; name: string; address: string }[];
  config: ServiceSettings;
  /** The number of the configuration version in effect (see configVersions). */
  config_version: number | null;
  checks: ServiceCheckResults | null;
  checks_at: string | null;
  operation: OperationView | null;
  created_at: string;
  updated_at: string;
}

const FINAL_OK = 'succeeded';
const ROLLBACK_PHASE = 'rollback (sealed with the upgrade)';
/** How long an upgrade's sealed rollback stays valid: longer than any upgrade of a few hosts takes. */
const SEALED_VALIDITY_S = 6 * 3600;

/** The state a service is in once an operation of this action succeeded. */
const AFTER: Partial<Record<OperationAction, ServiceState>> = {
  install: 'running',
  configuration: 'running',
  realign: 'running',
  upgrade: 'running',
  rollback: 'running',
  restore: 'running',
  start: 'running',
  restart: 'running',
  stop: 'stopped',
};

export class Services {
  private readonly unsubscribe: () => void;

  constructor(private readonly d: ServicesDeps) {
    this.unsubscribe = d.events.subscribe((e) => {
      if (e.type === 'host.liveness') return this.recordLiveness(e.data as LivenessReport);
      if (e.type !== 'command.changed') return;
      const id = (e.data as { id?: string; host_id?: string }).id;
      if (!id || !(e.data as { host_id?: string }).host_id) return;
      for (const op of d.store.services.running()) if (op.plans.some((p) => p.command_id === id)) this.advance(op.id);
    });
    // Receipts that arrived while the manager was down: the operations they end advance now.
    for (const op of d.store.services.running()) this.advance(op.id);
  }

  close(): void {
    this.unsubscribe();
  }

  private catalog(): Catalog {
    const c = this.d.catalog();
    if (!c) throw new CoreError('catalog_invalid', 'the service catalog is invalid: see the catalog_valid rule');
    return c;
  }

  list(clusterId: string): ServiceView[] {
    this.d.hosts.hostsCluster(clusterId);
    return this.d.store.services.list(clusterId).map((r) => this.view(r));
  }

  get(clusterId: string, service: string): ServiceView {
    this.d.hosts.hostsCluster(clusterId);
    return this.view(this.record(clusterId, service));
  }

  operations(clusterId: string, service: string | null, limit = 20): OperationView[] {
    this.d.hosts.hostsCluster(clusterId);
    return this.d.store.services
      .operations(clusterId, service, Math.min(Math.max(Math.trunc(limit) || 20, 1), 200))
      .map((o) => this.operationView(o));
  }

  operation(id: string): OperationView {
    const o = this.d.store.services.operation(id);
    if (!o) throw new NotFoundError('operation', id);
    return this.operationView(o);
  }

  /** What an operation on an installed service works on: its version, hosts and settings as recorded. */
  private target(r: ServiceRecord): { service: string; version: string; hosts: HostRecord[]; config: ServiceSettings } {
    return { service: r.service, version: r.version, hosts: r.hosts.map((id) => this.d.hosts.get(id)), config: r.config };
  }

  private record(clusterId: string, service: string): ServiceRecord {
    const r = this.d.store.services.get(clusterId, service);
    if (!r) throw new CoreError('service_not_installed', `${service} is not installed on this cluster`);
    return r;
  }

  /** Installs a catalog service on hosts of the cluster: `{service, version, hosts, config?, approval_id?}`. */
  async install(clusterId: string, body: Record<string, unknown>, user: PublicUser): Promise<OperationView> {
    this.d.hosts.hostsCluster(clusterId);
    const catalog = this.catalog();
    if (typeof body.service !== 'string' || !catalog.service(body.service))
      throw new ValidationError('service', `service is one of the catalog's: ${catalog.services.map((s) => s.service).join(', ')}`);
    const service = body.service;
    if (typeof body.version !== 'string' || !catalog.version(service, body.version))
      throw new ValidationError(
        'version',
        `version is one of ${catalog
          .service(service)!
          .versions.map((v) => v.version)
          .join(', ')}`,
      );
    const existing = this.d.store.services.get(clusterId, service);
    if (existing && existing.state !== 'failed')
      throw new ConflictError('service_installed', `${service} ${existing.version} is installed already (${existing.state})`);
    const hosts = this.resolveHosts(clusterId, body.hosts);
    const config = this.settings(catalog, service, body.config);
    return this.start(clusterId, 'install', { service, version: body.version, hosts, config }, user, optionalId(body.approval_id));
  }

  /** Writes a new configuration (settings) to every instance, restarts them and checks them. */
  async configure(clusterId: string, service: string, body: Record<string, unknown>, user: PublicUser): Promise<OperationView> {
    this.d.hosts.hostsCluster(clusterId);
    const r = this.record(clusterId, service);
    const config = this.settings(this.catalog(), service, body.config);
    return this.start(clusterId, 'configuration', { ...this.target(r), config }, user, optionalId(body.approval_id));
  }

  /** The configuration versions of an installed service, newest first (a rollback's says which it restored). */
  configVersions(clusterId: string, service: string): ConfigVersionRecord[] {
    this.d.hosts.hostsCluster(clusterId);
    this.record(clusterId, service);
    return this.d.store.services.configVersions(clusterId, service);
  }

  /** What an upgrade of the service to `to` involves: the catalog's answer for its installed version. */
  upgradeInfo(clusterId: string, service: string, to: unknown): UpgradeAnswer {
    this.d.hosts.hostsCluster(clusterId);
    const r = this.record(clusterId, service);
    if (typeof to !== 'string' || to === '') throw new ValidationError('to', 'to is the version to upgrade to');
    return this.catalog().upgrade(service, r.version, to);
  }

  /** Upgrades the service canary first, its rollback sealed before anything runs: `{version, approval_id?}`. */
  async upgrade(clusterId: string, service: string, body: Record<string, unknown>, user: PublicUser): Promise<OperationView> {
    const answer = this.upgradeInfo(clusterId, service, body.version);
    if (!answer.compatible) throw new CoreError('upgrade_incompatible', answer.problems.join('; '), { problems: answer.problems });
    const r = this.record(clusterId, service);
    return this.start(clusterId, 'upgrade', { ...this.target(r), version: answer.to, from: r.version }, user, optionalId(body.approval_id));
  }

  /**
   * Brings back the version the last upgrade started from, with its files and units, host by host. Refused with
   * the reason when the catalog says it cannot be done or an irreversible migration was applied.
   */
  async rollback(clusterId: string, service: string, body: Record<string, unknown>, user: PublicUser): Promise<OperationView> {
    this.d.hosts.hostsCluster(clusterId);
    const r = this.record(clusterId, service);
    const last = this.d.store.services
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
      const backup = last.backup_set_id ? this.d.store.serviceBackups.backup(last.backup_set_id, service) : undefined;
      throw new CoreError('rollback_refused', `${service} cannot go back to ${last.from_version}: ${reason}`, {
        reason,
        restore: backup
          ? { offered: true, backup_set_id: backup.set_id, version: backup.version, taken_at: backup.created_at }
          : { offered: false, why: 'no backup was taken before the upgrade' },
      });
    }
    // The configuration that stood when the upgrade started comes back too, recorded as a new version.
    const before = this.d.store.services.configVersions(clusterId, service).find((v) => v.created_at <= last.created_at);
    return this.start(
      clusterId,
      'rollback',
      { ...this.target(r), ...(before ? { config: before.config } : {}), version: last.from_version, from: r.version },
      user,
      optionalId(body.approval_id),
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
  async action(clusterId: string, service: string, body: Record<string, unknown>, user: PublicUser): Promise<OperationView> {
    this.d.hosts.hostsCluster(clusterId);
    const action = body.action;
    if (typeof action !== 'string' || !(SERVICE_ACTIONS as readonly string[]).includes(action))
      throw new ValidationError('action', `action is one of ${SERVICE_ACTIONS.join(', ')}`);
    const r = this.record(clusterId, service);
    return this.start(clusterId, action as ServiceAction, this.target(r), user, optionalId(body.approval_id));
  }

  /**
   * Runs every check of every installed service of the cluster now (liveness on each host, readiness, the
   * functional test) and waits for them, at most `timeoutMs`: what an acceptance report reads. A service with an
   * operation still running is not checked again; its latest results stand.
   */
  async checkAll(clusterId: string, actor: string, timeoutMs = 120_000): Promise<ServiceView[]> {
    const started: string[] = [];
    for (const r of this.d.store.services.list(clusterId)) {
      if (r.state === 'installing' || r.state === 'uninstalling' || this.d.store.services.runningFor(clusterId, r.service)) continue;
      started.push((await this.start(clusterId, 'check', this.target(r), { id: actor, name: actor }, undefined)).id);
    }
    const deadline = performance.now() + timeoutMs;
    while (started.some((id) => this.d.store.services.operation(id)?.state === 'running') && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    return this.d.store.services.list(clusterId).map((r) => this.view(r));
  }

  /** What the newest successful install of the service's version fetched on each host (for the report's source line). */
  fetched(clusterId: string, service: string): { host: string; path: string; digest: string; url: string }[] {
    const r = this.d.store.services.get(clusterId, service);
    const install = this.d.store.services
      .operations(clusterId, service, 200)
      .find((o) => o.action === 'install' && o.state === 'succeeded' && o.version === r?.version);
    if (!install) return [];
    const names = new Map(this.d.store.hosts.list(clusterId).map((h) => [h.id, h.name]));
    return install.plans
      .filter((p) => p.phase === 0)
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

  private resolveHosts(clusterId: string, value: unknown): HostRecord[] {
    if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string'))
      throw new ValidationError('hosts', 'hosts is a non-empty list of host ids or names of this cluster');
    const all = this.d.store.hosts.list(clusterId);
    const out = (value as string[]).map((v) => {
      const h = all.find((x) => x.id === v || x.name === v.toLowerCase());
      if (!h) throw new ValidationError('hosts', `this cluster has no host ${v}`);
      return h;
    });
    if (new Set(out.map((h) => h.id)).size !== out.length) throw new ValidationError('hosts', 'a host is named twice');
    return out;
  }

  private settings(catalog: Catalog, service: string, value: unknown): ServiceSettings {
    if (value === undefined || value === null) return {};
    if (typeof value !== 'object' || Array.isArray(value))
      throw new ValidationError('config', 'config is an object of the service’s settings');
    const declared = catalog.service(service)!.settings;
    const out: ServiceSettings = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (!Object.hasOwn(declared, k))
        throw new ValidationError('config', `${service} has no setting ${k} (it has: ${Object.keys(declared).join(', ') || 'none'})`);
      // Judged by its declared type before anything else reads it: a template never sees a value of another shape.
      const problem = settingProblem(declared[k]!, v);
      if (problem) throw new ValidationError('config', `setting ${k} (${declared[k]!.type}): ${problem}`);
      out[k] = v as string | number | boolean;
    }
    return out;
  }

  private planHosts(hosts: HostRecord[]): PlanHost[] {
    return hosts.map((h) => {
      if (!h.facts) throw new ConflictError('conflict', `host ${h.name} has not reported its facts yet: start its node agent first`);
      return { id: h.id, name: h.name, address: h.address, architecture: h.facts.architecture };
    });
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

  private async start(
    clusterId: string,
    action: OperationAction,
    target: { service: string; version: string; hosts: HostRecord[]; config: ServiceSettings; from?: string },
    user: Pick<PublicUser, 'id' | 'name'> & Partial<PublicUser>,
    approvalId: string | undefined,
    extra: {
      backupSetId?: string;
      restore?: { backup: ServiceBackupRecord; rewrite: boolean };
      gate?: boolean;
      /** A rollback's: the configuration version it brings back. */
      restoredConfig?: number;
    } = {},
  ): Promise<OperationView> {
    const { store, clock } = this.d;
    const { service, version, hosts, config, from } = target;
    if (store.services.runningFor(clusterId, service))
      throw new ConflictError('operation_running', `an operation on ${service} is still running`);
    // An install is judged on the hosts as they are now (ports freed by an uninstall a moment ago, say), not on
    // facts up to a minute old: the agents are asked for fresh facts first, briefly.
    if (action === 'install') await this.refreshFacts(hosts, user.name);
    // The checks and the functional test change nothing: they pass no gate but the role that asks for them.
    const gated = action !== 'check' && action !== 'functional_test' && extra.gate !== false;
    const admission = gated
      ? await this.d.lifecycle.admit(
          clusterId,
          {
            action: action === 'realign' ? 'configuration' : action,
            service,
            spec: { component: service, version },
            change: operationChange(action, { version, hosts: hosts.map((h) => h.id), settings: config, backup_set_id: extra.backupSetId }),
          },
          user as PublicUser,
          approvalId,
          { hosts: hosts.map((h) => h.id), install: action === 'install' },
        )
      : null;
    const mirror = store.reports.mirror();
    const input = {
      catalog: this.catalog(),
      clusterId,
      service,
      version,
      hosts: this.planHosts(hosts),
      settings: config,
      mirror: mirror.url ? { url: mirror.url, ca_pem: mirror.ca_pem } : null,
    };
    // An upgrade walks the hosts canary first; its rollback plans are signed now, before anything runs (sealed).
    const rolling = action === 'upgrade' || action === 'rollback' ? rollingPhases(input, action === 'upgrade' ? from! : null) : null;
    // An upgrade of a service that keeps data backs it up first, under a set of its own.
    const preBackup = action === 'upgrade' && this.catalog().service(service)?.backup ? randomUUID() : null;
    const setId = extra.backupSetId ?? preBackup;
    let phases: OperationPhase[];
    if (action === 'backup') phases = [backupPhase(input, setId!)];
    else if (action === 'restore') phases = restorePhases(input, extra.restore!.backup, { rewrite: extra.restore!.rewrite });
    else if (rolling) phases = preBackup ? [backupPhase({ ...input, version: from! }, preBackup), ...rolling.phases] : rolling.phases;
    else phases = operationPhases(action, input);
    const sealed = rolling?.rollback.map((p) => this.d.hostCommands.seal(p.host_id, p.args, SEALED_VALIDITY_S)) ?? null;
    const id = randomUUID();
    const now = clock.now().toISOString();
    store.tx(() => {
      if (store.services.runningFor(clusterId, service))
        throw new ConflictError('operation_running', `an operation on ${service} is still running`);
      if (action === 'install') store.services.deleteConfigVersions(clusterId, service);
      if (action === 'install' || action === 'configuration' || (action === 'rollback' && extra.restoredConfig !== undefined))
        store.services.addConfigVersion({
          cluster_id: clusterId,
          service,
          config,
          operation_id: id,
          restored_from: action === 'rollback' ? extra.restoredConfig! : null,
          created_at: now,
        });
      if (action === 'install')
        store.services.put({
          cluster_id: clusterId,
          service,
          version,
          hosts: hosts.map((h) => h.id),
          config,
          state: 'installing',
          updated_at: now,
        });
      else if (action === 'configuration' || action === 'rollback')
        store.services.put({ ...this.record(clusterId, service), config, updated_at: now });
      else if (action === 'uninstall') store.services.setState(clusterId, service, 'uninstalling', now);
      if (preBackup)
        store.serviceBackups.insertSet({
          id: preBackup,
          cluster_id: clusterId,
          services: [service],
          reason: 'upgrade',
          requested_by: user.name,
          created_at: now,
        });
      store.services.insertOperation({
        id,
        cluster_id: clusterId,
        service,
        action,
        version,
        phases,
        requested_by: user.name,
        created_at: now,
        from_version: from ?? null,
        sealed,
        backup_set_id: setId,
      });
      admission?.consume(`operation:${id}`);
      store.audit.append({
        actor: user.name,
        action: `service.${action}`,
        cluster_id: clusterId,
        target: service,
        details: {
          operation_id: id,
          version,
          hosts: hosts.map((h) => h.name),
          config,
          approval_id: approvalId ?? null,
          preflight: admission?.preflight?.id ?? null,
          ...(setId ? { backup_set_id: setId } : {}),
        },
      });
      this.issuePhase(store.services.operation(id)!, 0, user.name);
    });
    if (admission?.fourEyes) this.d.events.emit('approval.changed', { id: approvalId, cluster_id: clusterId });
    this.announce(clusterId, service, id);
    return this.operation(id);
  }

  /** Asks each host's agent for its facts and waits until they arrived, at most `timeoutMs` (then the preflight warns). */
  private async refreshFacts(hosts: HostRecord[], actor: string, timeoutMs = 10_000): Promise<void> {
    const since = this.d.clock.now().toISOString();
    for (const h of hosts) this.d.hostCommands.issueFactsReport(h.id, actor);
    const deadline = performance.now() + timeoutMs;
    const fresh = (): boolean => hosts.every((h) => (this.d.store.hosts.get(h.id)?.facts_at ?? '') >= since);
    while (!fresh() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  private issuePhase(op: OperationRecord, phase: number, actor: string): void {
    const issued = op.phases[phase]!.plans.map((p) => ({
      phase,
      host_id: p.host_id,
      command_id: this.d.hostCommands.issuePlan(p.host_id, p.args, actor, { allowFourEyes: true }).id,
    }));
    this.d.store.services.setPhase(op.id, phase, [...op.plans, ...issued]);
  }

  /** Moves an operation on when its current phase's plans have all ended. */
  private advance(operationId: string): void {
    const { store, clock } = this.d;
    const changed = store.tx(() => {
      const op = store.services.operation(operationId);
      if (!op || op.state !== 'running') return false;
      const current = op.plans.filter((p) => p.phase === op.phase).map((p) => ({ ...p, command: store.commands.get(p.command_id) }));
      if (current.length === 0 || current.some((p) => !p.command || !commandEnded(p.command.state))) return false;
      const now = clock.now().toISOString();
      this.recordChecks(
        op,
        current.map((p) => ({ host_id: p.host_id, result: p.command!.result as Partial<PlanResult> | null })),
        now,
      );
      const rollingBack = op.phases[op.phase]?.name === ROLLBACK_PHASE;
      const backingUp = op.phases[op.phase]?.name === BACKUP_PHASE && op.backup_set_id !== null;
      let failure = this.failureOf(current);
      if (op.phases[op.phase]?.name === RESTART_PHASE) {
        // The backup failed; the service its steps had stopped is running again (or says why not).
        const how = failure ? `starting it again failed: ${failure.message}` : 'the service was started again';
        store.services.finishOperation(op.id, 'failed', op.code, `${op.message}; ${how}`, now);
        if (failure) store.services.setState(op.cluster_id, op.service, 'failed', now);
        store.audit.append({
          actor: 'manager',
          action: 'service.operation_failed',
          cluster_id: op.cluster_id,
          target: op.service,
          details: { operation_id: op.id, action: op.action, code: op.code, restarted: !failure },
        });
        return true;
      }
      // A backup's phase ended well: its files and their sha256 are recorded with the operation's progress.
      if (backingUp && !failure) failure = this.recordBackup(op, current[0]!, now);
      if (backingUp && op.action === 'upgrade')
        store.serviceBackups.finishSet(
          op.backup_set_id!,
          failure ? 'failed' : 'succeeded',
          failure?.code ?? null,
          failure?.message ?? null,
          now,
        );
      if (failure) {
        const { host, message, task, code } = failure;
        // A backup that failed between its stop and its start: the service is started again before the end.
        const restart = backingUp
          ? restartAfterFailedBackup(op.phases[op.phase]!.plans[0]!.args.tasks, current[0]!.command!.result as Partial<PlanResult> | null)
          : null;
        if (restart) {
          const hostId = current[0]!.host_id;
          const args: PlanArgs = { title: `start ${op.service} again on ${host} after its failed backup`, tasks: restart };
          store.services.addPhase(op.id, { name: RESTART_PHASE, plans: [{ host_id: hostId, args }] }, code, message);
          const issued = {
            phase: op.phases.length,
            host_id: hostId,
            command_id: this.d.hostCommands.issuePlan(hostId, args, 'manager', { allowFourEyes: true }).id,
          };
          store.services.setPhase(op.id, op.phases.length, [...op.plans, issued]);
          return true;
        }
        // A failed upgrade queues the rollback sealed with it, for the hosts it touched only (the canary first); a
        // failure of the backup it takes first touched none.
        if (op.action === 'upgrade' && !rollingBack && !backingUp && op.sealed) {
          const touched = new Set(op.plans.filter((p) => op.phases[p.phase]?.name !== BACKUP_PHASE).map((p) => p.host_id));
          const sealed = op.sealed.filter((x) => touched.has(x.host_id));
          store.services.addPhase(
            op.id,
            { name: ROLLBACK_PHASE, plans: sealed.map((x) => ({ host_id: x.host_id, args: x.args as unknown as PlanArgs })) },
            code,
            message,
          );
          const issued = sealed.map((x) => ({
            phase: op.phases.length,
            host_id: x.host_id,
            command_id: this.d.hostCommands.issueSealed(x, 'manager').id,
          }));
          store.services.setPhase(op.id, op.phases.length, [...op.plans, ...issued]);
          store.audit.append({
            actor: 'manager',
            action: 'service.upgrade_rolling_back',
            cluster_id: op.cluster_id,
            target: op.service,
            details: {
              operation_id: op.id,
              from: op.from_version,
              to: op.version,
              hosts: sealed.map((x) => x.host_id),
              code: code,
              host,
            },
          });
          return true;
        }
        store.services.finishOperation(
          op.id,
          'failed',
          rollingBack ? 'rollback_failed' : code,
          rollingBack ? `the rollback after "${op.message}" failed: ${message}` : message,
          now,
        );
        // A restore that stopped at its verification changed nothing (that is what verifying first is for).
        const changedHosts = op.action !== 'restore' || op.phase > 0;
        if (
          changedHosts &&
          ['install', 'configuration', 'realign', 'start', 'restart', 'uninstall', 'rollback', 'restore'].includes(op.action)
        )
          store.services.setState(op.cluster_id, op.service, 'failed', now);
        store.audit.append({
          actor: 'manager',
          action: 'service.operation_failed',
          cluster_id: op.cluster_id,
          target: op.service,
          details: { operation_id: op.id, action: op.action, code: code, host, task: task ?? null },
        });
        return true;
      }
      if (rollingBack) {
        // Back on the previous version everywhere it had moved: the upgrade failed, the service runs as before.
        store.services.finishOperation(op.id, 'failed', op.code, `${op.message}; rolled back to ${op.from_version}`, now);
        store.services.setState(op.cluster_id, op.service, 'running', now);
        store.audit.append({
          actor: 'manager',
          action: 'service.upgrade_rolled_back',
          cluster_id: op.cluster_id,
          target: op.service,
          details: { operation_id: op.id, version: op.from_version },
        });
        return true;
      }
      if (op.phase + 1 < op.phases.length) {
        this.issuePhase(op, op.phase + 1, op.requested_by);
        return true;
      }
      store.services.finishOperation(op.id, 'succeeded', null, null, now);
      if (op.action === 'upgrade' || op.action === 'rollback' || op.action === 'restore')
        store.services.setVersion(op.cluster_id, op.service, op.version, now);
      const after = AFTER[op.action as OperationAction];
      if (op.action === 'uninstall') {
        store.services.delete(op.cluster_id, op.service);
        store.services.deleteConfigVersions(op.cluster_id, op.service);
      } else if (after) store.services.setState(op.cluster_id, op.service, after, now);
      store.audit.append({
        actor: 'manager',
        action: 'service.operation_succeeded',
        cluster_id: op.cluster_id,
        target: op.service,
        details: { operation_id: op.id, action: op.action, version: op.version },
      });
      return true;
    });
    if (changed) {
      const op = store.services.operation(operationId)!;
      this.announce(op.cluster_id, op.service, op.id);
    }
  }

  /** The first failed plan of a phase: its host, its code and which task failed with what message. */
  private failureOf(plans: { host_id: string; command?: { state: string; code: string | null; result: unknown } }[]): Failure | null {
    const failed = plans.find((p) => p.command!.state !== FINAL_OK);
    if (!failed) return null;
    const c = failed.command!;
    const task = ((c.result as Partial<PlanResult> | null)?.tasks ?? []).find((t) => t.status === 'failed');
    const host = this.d.store.hosts.get(failed.host_id)?.name ?? failed.host_id;
    return {
      host,
      code: c.code ?? 'plan_failed',
      task: task?.id ?? null,
      message: `${task ? `task ${task.id}` : 'the plan'} failed on ${host}${task?.message ? `: ${task.message}` : ''}`,
    };
  }

  /** Records the backup a phase took (its files with their sha256), or the failure if it did not report them all. */
  private recordBackup(op: OperationRecord, plan: { host_id: string; command?: { result: unknown } }, at: string): Failure | null {
    const setId = op.backup_set_id!;
    const result = plan.command!.result as Partial<PlanResult> | null;
    const hashed = (result?.tasks ?? []).find((t) => t.id === 'hash')?.output?.files as
      Record<string, { sha256: string; size: number }> | undefined;
    const names = (this.d.catalog()?.service(op.service)?.backup?.files ?? []).map((f) => f.name);
    const host = this.d.store.hosts.get(plan.host_id)?.name ?? plan.host_id;
    try {
      this.d.store.serviceBackups.put({
        set_id: setId,
        service: op.service,
        // An upgrade backs up the version it starts from.
        version: op.action === 'upgrade' ? op.from_version! : op.version,
        host_id: plan.host_id,
        dir: backupDir(setId, op.service),
        files: backupFiles(names, op.phases[op.phase]!.plans[0]!.args.tasks, hashed),
        operation_id: op.id,
        created_at: at,
      });
      return null;
    } catch (error) {
      if (!(error instanceof CoreError)) throw error;
      return { host, code: error.code, task: 'hash', message: error.message };
    }
  }

  /** The liveness a host's agent measured on its own (watched units) becomes its instances' latest liveness. */
  private recordLiveness(report: LivenessReport): void {
    const catalog = this.d.catalog();
    const at = this.d.clock.now().toISOString();
    for (const r of this.d.store.services.list(report.cluster_id)) {
      const unit = catalog?.service(r.service)?.unit.name;
      const outcome = unit ? report.liveness[unit] : undefined;
      if (!outcome || !r.hosts.includes(report.host_id)) continue;
      const checks: ServiceCheckResults = r.checks ?? { liveness: {}, readiness: null, functional: null };
      const before = checks.liveness[report.host_id];
      if (before && !((parseTimestamp(outcome.started_at) ?? -Infinity) > (parseTimestamp(before.outcome.started_at) ?? -Infinity)))
        continue;
      checks.liveness[report.host_id] = { at: outcome.started_at, outcome };
      this.d.store.services.setChecks(r.cluster_id, r.service, checks, at);
      if (before?.outcome.status !== outcome.status)
        this.d.events.emit('service.changed', { cluster_id: r.cluster_id, service: r.service });
    }
  }

  /** Keeps the check outcomes the plans carried (passed or failed) as the service's latest results. */
  private recordChecks(op: OperationRecord, plans: { host_id: string; result: Partial<PlanResult> | null }[], at: string): void {
    const r = this.d.store.services.get(op.cluster_id, op.service);
    if (!r) return;
    const checks: ServiceCheckResults = r.checks ?? { liveness: {}, readiness: null, functional: null };
    let seen = false;
    for (const p of plans)
      for (const t of p.result?.tasks ?? []) {
        const outcome = checkOf(t);
        if (t.kind !== 'check' || !outcome) continue;
        seen = true;
        if (t.id === 'liveness') checks.liveness[p.host_id] = { at, outcome };
        else if (t.id === 'readiness' || t.id === 'functional') checks[t.id] = { at, host_id: p.host_id, outcome };
      }
    if (seen) this.d.store.services.setChecks(op.cluster_id, op.service, checks, at);
  }

  private announce(clusterId: string, service: string, operationId: string): void {
    this.d.events.emit('service.changed', { cluster_id: clusterId, service, operation_id: operationId });
  }

  private view(r: ServiceRecord): ServiceView {
    const desc = this.d.catalog()?.service(r.service);
    const latest = this.d.store.services.operations(r.cluster_id, r.service, 1)[0];
    return {
      service: r.service,
      title: desc?.title ?? r.service,
      version: r.version,
      state: r.state,
      hosts: r.hosts.map((id) => {
        const h = this.d.store.hosts.get(id);
        return { id, name: h?.name ?? id, address: h?.address ?? '' };
      }),
      config: r.config,
      config_version: this.d.store.services.configVersions(r.cluster_id, r.service)[0]?.number ?? null,
      checks: r.checks,
      checks_at: r.checks_at,
      operation: latest ? this.operationView(latest) : null,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }

  private operationView(o: OperationRecord): OperationView {
    const names = new Map(this.d.store.hosts.list(o.cluster_id).map((h) => [h.id, h.name]));
    let done = 0;
    let total = 0;
    const phases = o.phases.map((phase, i) => {
      const plans = o.plans
        .filter((p) => p.phase === i)
        .map((p) => ({ ...this.d.hostCommands.plan(p.command_id), host_name: names.get(p.host_id) ?? p.host_id }));
      for (const p of phase.plans) total += p.args.tasks.length;
      for (const p of plans) done += p.tasks.filter((t) => t.status === 'succeeded').length;
      return { name: phase.name, hosts: phase.plans.map((p) => names.get(p.host_id) ?? p.host_id), plans };
    });
    return {
      id: o.id,
      cluster_id: o.cluster_id,
      service: o.service,
      action: o.action,
      version: o.version,
      state: o.state,
      code: o.code,
      message: o.message,
      phase: o.phase,
      phases,
      progress: { done, total },
      requested_by: o.requested_by,
      created_at: o.created_at,
      finished_at: o.finished_at,
    };
  }
}

interface Failure {
  host: string;
  code: string;
  task: string | null;
  message: string;
}

interface LivenessReport {
  host_id: string;
  cluster_id: string;
  liveness: Record<string, CheckOutcome>;
}

const optionalId = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** The CheckOutcome a check task reported, passed (output.check) or failed (the failure's output.check). */
function checkOf(t: TaskOutcome): CheckOutcome | null {
  const c = (t.output as { check?: CheckOutcome } | undefined)?.check;
  return c && typeof c === 'object' && (c.status === 'pass' || c.status === 'fail') ? c : null;
}
