// Backups of the services of a hosts cluster: "Back up now" takes a set (the chosen services, all by default, in
// dependency order, one backup operation after another under one set id) and a restore brings one service's data
// back from a set, its files checked again first. The operations themselves run in Services.
import type { Tables } from '../domain-tables';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type {
  ServiceBackup as ServiceBackupView,
  ServiceBackupSet as ServiceBackupSetView,
  serviceBackupCreateSchema,
  serviceBackupRestoreSchema,
} from '../../contract/service-backups';
import type { PublicUser } from '../accounts/accounts';
import { CoreError, found, NotFoundError, ValidationError } from '../errors';
import type { ServiceBackupRecord, ServiceBackupSetRecord } from './service-backups-tables';
import type { OperationView, Services } from './services';
import type { ServicesDeps } from './services-deps';

/** The services' own dependencies, with the services themselves instead of the host commands and the CA. */
export interface ServiceBackupsDeps extends Omit<ServicesDeps, 'tables' | 'hostCommands' | 'certificates'> {
  tables: Tables<'hosts' | 'serviceBackups' | 'services'>;
  services: Services;
}

/** "Back up now" and a restore as their contract's schemas parsed them. */
export type ServiceBackupCreateRequest = z.output<typeof serviceBackupCreateSchema>;
export type ServiceBackupRestoreRequest = z.output<typeof serviceBackupRestoreSchema>;

export class ServiceBackups {
  private readonly unsubscribe: () => void;

  constructor(private readonly d: ServiceBackupsDeps) {
    this.unsubscribe = d.events.subscribe((e) => {
      if (e.type !== 'service.changed') return;
      const id = e.data.operation_id;
      const op = id ? d.tables.services.operation(id) : undefined;
      if (op?.action === 'backup' && op.state !== 'running' && op.backup_set_id) this.goOn(op.backup_set_id);
    });
  }

  close(): void {
    this.unsubscribe();
  }

  /** Sets whose next backup was not started when the manager stopped go on. */
  resume(): void {
    for (const s of this.d.tables.serviceBackups.running()) if (s.reason === 'manual') this.goOn(s.id);
  }

  list(clusterId: string, limit = 50): ServiceBackupSetView[] {
    this.d.hosts.hostsCluster(clusterId);
    return this.d.tables.serviceBackups.sets(clusterId, Math.min(Math.max(Math.trunc(limit) || 50, 1), 200)).map((s) => this.view(s));
  }

  get(clusterId: string, setId: string): ServiceBackupSetView {
    return this.view(this.set(clusterId, setId));
  }

  /** Back up now: `{services?: string[], approval_id?}`; every installed service that keeps data by default. */
  async create(clusterId: string, body: ServiceBackupCreateRequest, user: PublicUser): Promise<ServiceBackupSetView> {
    this.d.hosts.hostsCluster(clusterId);
    const catalog = this.d.catalog();
    if (!catalog) throw new CoreError('catalog_invalid', 'the service catalog is invalid: see the catalog_valid rule');
    const installed = this.d.tables.services.list(clusterId);
    const backable = installed.filter((r) => catalog.service(r.service)?.backup).map((r) => r.service);
    let chosen: string[];
    if (body.services === undefined) {
      if (backable.length === 0)
        throw new CoreError('backup_unsupported', 'no service installed on this cluster keeps data the catalog knows how to back up');
      chosen = backable;
    } else {
      for (const s of body.services) {
        if (!installed.some((r) => r.service === s)) throw new ValidationError('services', `${s} is not installed on this cluster`);
        if (!backable.includes(s)) throw new CoreError('backup_unsupported', `${s} keeps no data the catalog knows how to back up`);
      }
      chosen = [...new Set(body.services)];
    }
    for (const s of chosen)
      if (this.d.tables.services.runningFor(clusterId, s))
        throw new CoreError('operation_running', `an operation on ${s} is still running; back up when it has ended`);
    const services = catalog.dependencyOrder(chosen);
    const approvalId = body.approval_id;
    // A backup stays possible under a blocked profile (it is how a cluster is brought back into compliance). One
    // that stops a server (NATS archives its store stopped) is an outage: four-eyes where the profile wants it.
    const stops = services.some((s) => catalog.service(s)?.backup?.steps.some((step) => 'unit' in step && step.unit !== 'start'));
    const admission = await this.d.lifecycle.admit(
      clusterId,
      { action: 'backup', service: services.join(','), change: { services }, disruptive: stops },
      user,
      approvalId,
    );
    const id = randomUUID();
    const now = this.d.clock.now().toISOString();
    this.d.store.tx(() => {
      this.d.tables.serviceBackups.insertSet({
        id,
        cluster_id: clusterId,
        services,
        reason: 'manual',
        requested_by: user.name,
        created_at: now,
      });
      admission.consume(`backup-set:${id}`);
      this.d.store.audit.append({
        actor: user.name,
        action: 'service.backup_requested',
        cluster_id: clusterId,
        target: services.join(','),
        details: { backup_set_id: id, services, approval_id: approvalId ?? null },
      });
    });
    await this.continue(id);
    return this.get(clusterId, id);
  }

  /**
   * Restores one service from a set: `{service, approval_id?}`. Into the version the backup was taken in only; the
   * one exception is the backup an upgrade took first, which also brings back the version it started from.
   */
  async restore(clusterId: string, setId: string, body: ServiceBackupRestoreRequest, user: PublicUser): Promise<OperationView> {
    const set = this.set(clusterId, setId);
    const backup = found(this.d.tables.serviceBackups.backup(set.id, body.service), `backup of ${body.service} in set`, set.id);
    const r = this.d.tables.services.get(clusterId, backup.service);
    if (!r) throw new CoreError('service_not_installed', `${backup.service} is not installed on this cluster`);
    let rewrite = false;
    if (r.version !== backup.version) {
      const upgrade = set.reason === 'upgrade' ? this.upgradeOf(set) : undefined;
      if (!upgrade || upgrade.state !== 'succeeded' || upgrade.version !== r.version)
        throw new CoreError(
          'backup_version_mismatch',
          `this backup of ${backup.service} was taken in ${backup.version}; the service runs ${r.version}`,
          { backup_version: backup.version, version: r.version },
        );
      rewrite = true;
    }
    return this.d.services.restore(clusterId, backup, user, body.approval_id, rewrite);
  }

  /** continue() from an event: a fault there ends the set as failed instead of escaping as an unhandled rejection. */
  private goOn(setId: string): void {
    this.continue(setId).catch((error: unknown) => {
      const set = this.d.tables.serviceBackups.set(setId);
      if (set?.state === 'running') this.finish(set, 'failed', 'internal', (error as Error).message);
    });
  }

  /** Starts the set's next backup, or ends the set when its last one ended (or one failed). */
  private async continue(setId: string): Promise<void> {
    const { tables } = this.d;
    const set = tables.serviceBackups.set(setId);
    if (!set || set.state !== 'running' || set.reason !== 'manual') return;
    const ops = this.operationsOf(set);
    for (const service of set.services) {
      const op = ops.find((o) => o.service === service);
      if (op?.state === 'running') return;
      if (op?.state === 'failed')
        return this.finish(set, 'failed', op.code ?? 'plan_failed', `${service}: ${op.message ?? 'failed'}`, op.id);
      if (op) continue;
      try {
        await this.d.services.backup(set.cluster_id, service, set.id, { id: set.requested_by, name: set.requested_by });
      } catch (error) {
        if (!(error instanceof CoreError)) throw error;
        this.finish(set, 'failed', error.code, `${service}: ${error.message}`);
      }
      return;
    }
    this.finish(set, 'succeeded', null, null);
  }

  /**
   * `failedOperation`: the operation whose message the set's quotes. The audit row, open to viewers, names it
   * rather than copying its message, which may quote what a backup tool printed (the operation's own row does not).
   */
  private finish(
    set: ServiceBackupSetRecord,
    state: 'succeeded' | 'failed',
    code: string | null,
    message: string | null,
    failedOperation?: string,
  ): void {
    const { store, tables, clock } = this.d;
    store.tx(() => {
      tables.serviceBackups.finishSet(set.id, state, code, message, clock.now().toISOString());
      store.audit.append({
        actor: 'manager',
        action: state === 'succeeded' ? 'service.backup_succeeded' : 'service.backup_failed',
        cluster_id: set.cluster_id,
        target: set.services.join(','),
        details: failedOperation
          ? { backup_set_id: set.id, code, operation_id: failedOperation }
          : { backup_set_id: set.id, code, message },
      });
    });
    this.d.events.emit('backup.changed', { cluster_id: set.cluster_id, backup_set_id: set.id });
  }

  private set(clusterId: string, setId: string): ServiceBackupSetRecord {
    this.d.hosts.hostsCluster(clusterId);
    const set = this.d.tables.serviceBackups.set(setId);
    if (!set || set.cluster_id !== clusterId) throw new NotFoundError('backup set', setId);
    return set;
  }

  /** The operations that took (or restored) the set's backups, oldest first. */
  private operationsOf(set: ServiceBackupSetRecord) {
    return this.d.tables.services
      .operations(set.cluster_id, null, 200)
      .filter((o) => o.backup_set_id === set.id)
      .reverse();
  }

  private upgradeOf(set: ServiceBackupSetRecord) {
    return this.operationsOf(set).find((o) => o.action === 'upgrade');
  }

  private view(s: ServiceBackupSetRecord): ServiceBackupSetView {
    const names = new Map(this.d.tables.hosts.list(s.cluster_id).map((h) => [h.id, h.name]));
    const backup = (b: ServiceBackupRecord): ServiceBackupView => ({
      service: b.service,
      version: b.version,
      host: { id: b.host_id, name: names.get(b.host_id) ?? b.host_id },
      dir: b.dir,
      files: Object.entries(b.files).map(([name, f]) => ({ name, ...f })),
      taken_at: b.created_at,
    });
    return {
      id: s.id,
      cluster_id: s.cluster_id,
      reason: s.reason,
      state: s.state,
      code: s.code,
      message: s.message,
      services: s.services,
      backups: this.d.tables.serviceBackups.backups(s.id).map(backup),
      operations: this.operationsOf(s)
        .filter((o) => o.action !== 'restore')
        .map((o) => ({ service: o.service, id: o.id, action: o.action, state: o.state })),
      requested_by: s.requested_by,
      created_at: s.created_at,
      finished_at: s.finished_at,
    };
  }
}
