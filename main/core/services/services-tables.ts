// SQL for the services of hosts clusters: what is installed where (one row per cluster and service, with the
// latest check results), and the operations that change them, each a list of phases of signed plans.
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';
import type { PlanArgs } from '../../wire/plan';
import type {
  OperationView,
  ServiceCheckResults,
  ServiceConfigVersion,
  ServiceSettings,
  ServiceState,
  ServiceView,
} from '../../contract/services';

export type { ServiceCheckResults, ServiceSettings, ServiceState };

/** A service's row: what its view shows of it, with its hosts by id (in member order) and its cluster. */
export type ServiceRecord = Pick<
  ServiceView,
  'service' | 'version' | 'config' | 'state' | 'checks' | 'checks_at' | 'created_at' | 'updated_at'
> & { cluster_id: string; hosts: string[] };

/** One step of an operation: a plan per host, all issued at once; the next phase starts when every one succeeded. */
export interface OperationPhase {
  name: string;
  plans: { host_id: string; args: PlanArgs }[];
}

/** An operation's row: its view's fields but its phases (as planned), and what only the core reads. */
export type OperationRecord = Omit<OperationView, 'phases' | 'progress'> & {
  phases: OperationPhase[];
  /** The commands issued so far, per phase and host. */
  plans: { phase: number; host_id: string; command_id: string }[];
  /** An upgrade's or a rollback's starting version. */
  from_version: string | null;
  /** An upgrade's rollback plans, signed before it started; queued only if the upgrade fails. */
  sealed: SealedPlan[] | null;
  /** The backup set a backup operation writes to, a restore reads from, or an upgrade took first. */
  backup_set_id: string | null;
};

/** A signed plan kept out of the queue (the core's SealedCommand, as stored). */
export interface SealedPlan {
  command_id: string;
  host_id: string;
  op: string;
  args: Record<string, unknown>;
  envelope: unknown;
  not_after: string;
}

/** One numbered configuration (the settings) of an installed service, as its view shows it. */
export type ConfigVersionRecord = ServiceConfigVersion;

type RawOperation = Raw<OperationRecord, 'phases' | 'plans' | 'sealed'>;
type Raw<T, K extends keyof T> = Omit<T, K> & { [P in K]: string | null };
const parseService = (r: Raw<ServiceRecord, 'hosts' | 'config' | 'checks'>): ServiceRecord => ({
  ...r,
  hosts: JSON.parse(r.hosts!) as string[],
  config: JSON.parse(r.config!) as ServiceSettings,
  checks: r.checks === null ? null : (JSON.parse(r.checks) as ServiceCheckResults),
});
const parseOperation = (r: RawOperation): OperationRecord => ({
  ...r,
  phases: JSON.parse(r.phases!) as OperationPhase[],
  plans: JSON.parse(r.plans!) as OperationRecord['plans'],
  sealed: r.sealed ? (JSON.parse(r.sealed) as SealedPlan[]) : null,
});

export class ServicesTables {
  constructor(private readonly db: Db) {}

  get(clusterId: string, service: string): ServiceRecord | undefined {
    const r = this.db.prepare('SELECT * FROM services WHERE cluster_id = ? AND service = ?').get(clusterId, service) as
      Raw<ServiceRecord, 'hosts' | 'config' | 'checks'> | undefined;
    return r && parseService(r);
  }

  list(clusterId: string): ServiceRecord[] {
    return (
      this.db.prepare('SELECT * FROM services WHERE cluster_id = ? ORDER BY service').all(clusterId) as Raw<
        ServiceRecord,
        'hosts' | 'config' | 'checks'
      >[]
    ).map(parseService);
  }

  /** Inserts or replaces the row (an install over a failed one starts afresh); the checks are kept. */
  put(r: Omit<ServiceRecord, 'checks' | 'checks_at' | 'created_at'> & { created_at?: string }): void {
    this.db
      .prepare(
        `INSERT INTO services (cluster_id, service, version, hosts, config, state, created_at, updated_at)
         VALUES (@cluster_id, @service, @version, @hosts, @config, @state, @updated_at, @updated_at)
         ON CONFLICT (cluster_id, service) DO UPDATE SET version = excluded.version, hosts = excluded.hosts,
           config = excluded.config, state = excluded.state, updated_at = excluded.updated_at`,
      )
      .run({ ...r, hosts: JSON.stringify(r.hosts), config: JSON.stringify(r.config) });
  }

  setState(clusterId: string, service: string, state: ServiceState, at: string): void {
    this.db
      .prepare('UPDATE services SET state = ?, updated_at = ? WHERE cluster_id = ? AND service = ?')
      .run(state, at, clusterId, service);
  }

  setChecks(clusterId: string, service: string, checks: ServiceCheckResults, at: string): void {
    this.db
      .prepare('UPDATE services SET checks = ?, checks_at = ? WHERE cluster_id = ? AND service = ?')
      .run(JSON.stringify(checks), at, clusterId, service);
  }

  delete(clusterId: string, service: string): void {
    this.db.prepare('DELETE FROM services WHERE cluster_id = ? AND service = ?').run(clusterId, service);
  }

  insertOperation(
    o: Omit<
      OperationRecord,
      'state' | 'code' | 'message' | 'phase' | 'plans' | 'finished_at' | 'from_version' | 'sealed' | 'backup_set_id'
    > &
      Partial<Pick<OperationRecord, 'from_version' | 'sealed' | 'backup_set_id'>>,
  ): void {
    this.db
      .prepare(
        `INSERT INTO service_operations (id, cluster_id, service, action, version, state, phases, requested_by, created_at, from_version, sealed, backup_set_id)
         VALUES (@id, @cluster_id, @service, @action, @version, 'running', @phases, @requested_by, @created_at, @from_version, @sealed, @backup_set_id)`,
      )
      .run({
        ...o,
        phases: JSON.stringify(o.phases),
        from_version: o.from_version ?? null,
        sealed: o.sealed ? JSON.stringify(o.sealed) : null,
        backup_set_id: o.backup_set_id ?? null,
      });
  }

  /** Appends a phase (an upgrade's rollback) and records why, the operation still running. */
  addPhase(id: string, phase: OperationPhase, code: string, message: string): void {
    const o = this.operation(id)!;
    this.db
      .prepare('UPDATE service_operations SET phases = ?, code = ?, message = ? WHERE id = ?')
      .run(JSON.stringify([...o.phases, phase]), code, message, id);
  }

  /** A planned phase's plans as they were signed (a certificates phase's CSRs signed into the next one's files). */
  replacePlans(id: string, phase: number, plans: OperationPhase['plans']): void {
    const o = this.operation(id)!;
    const phases = o.phases.map((p, i) => (i === phase ? { ...p, plans } : p));
    this.db.prepare('UPDATE service_operations SET phases = ? WHERE id = ?').run(JSON.stringify(phases), id);
  }

  operation(id: string): OperationRecord | undefined {
    const r = this.db.prepare('SELECT * FROM service_operations WHERE id = ?').get(id) as RawOperation | undefined;
    return r && parseOperation(r);
  }

  operations(clusterId: string, service: string | null, limit: number): OperationRecord[] {
    const rows = (
      service === null
        ? this.db
            .prepare('SELECT * FROM service_operations WHERE cluster_id = ? ORDER BY created_at DESC, id LIMIT ?')
            .all(clusterId, limit)
        : this.db
            .prepare('SELECT * FROM service_operations WHERE cluster_id = ? AND service = ? ORDER BY created_at DESC, id LIMIT ?')
            .all(clusterId, service, limit)
    ) as RawOperation[];
    return rows.map(parseOperation);
  }

  running(): OperationRecord[] {
    return (this.db.prepare("SELECT * FROM service_operations WHERE state = 'running' ORDER BY created_at").all() as RawOperation[]).map(
      parseOperation,
    );
  }

  /** The running operation of a service, if any: one at a time per service. */
  runningFor(clusterId: string, service: string): OperationRecord | undefined {
    const r = this.db
      .prepare("SELECT * FROM service_operations WHERE cluster_id = ? AND service = ? AND state = 'running' LIMIT 1")
      .get(clusterId, service) as RawOperation | undefined;
    return r && parseOperation(r);
  }

  setPhase(id: string, phase: number, plans: OperationRecord['plans']): void {
    this.db.prepare('UPDATE service_operations SET phase = ?, plans = ? WHERE id = ?').run(phase, JSON.stringify(plans), id);
  }

  finishOperation(id: string, state: 'succeeded' | 'failed', code: string | null, message: string | null, at: string): boolean {
    return (
      this.db
        .prepare("UPDATE service_operations SET state = ?, code = ?, message = ?, finished_at = ? WHERE id = ? AND state = 'running'")
        .run(state, code, message, at, id).changes === 1
    );
  }

  /** Records the settings as the service's next configuration version; its number. */
  addConfigVersion(v: Omit<ConfigVersionRecord, 'number'>): number {
    const last = this.db
      .prepare('SELECT MAX(number) AS n FROM service_config_versions WHERE cluster_id = ? AND service = ?')
      .get(v.cluster_id, v.service) as { n: number | null };
    const number = (last.n ?? 0) + 1;
    this.db
      .prepare(insertSql('service_config_versions', 'cluster_id, service, number, config, operation_id, restored_from, created_at'))
      .run({ ...v, number, config: JSON.stringify(v.config) });
    return number;
  }

  /** The configuration versions of a service, newest first. */
  configVersions(clusterId: string, service: string): ConfigVersionRecord[] {
    return (
      this.db
        .prepare('SELECT * FROM service_config_versions WHERE cluster_id = ? AND service = ? ORDER BY number DESC')
        .all(clusterId, service) as (Omit<ConfigVersionRecord, 'config'> & { config: string })[]
    ).map((r) => ({ ...r, config: JSON.parse(r.config) as ServiceSettings }));
  }

  /** A service's configuration versions go with it (a new install starts at 1). */
  deleteConfigVersions(clusterId: string, service: string): void {
    this.db.prepare('DELETE FROM service_config_versions WHERE cluster_id = ? AND service = ?').run(clusterId, service);
  }

  setVersion(clusterId: string, service: string, version: string, at: string): void {
    this.db
      .prepare('UPDATE services SET version = ?, updated_at = ? WHERE cluster_id = ? AND service = ?')
      .run(version, at, clusterId, service);
  }
}
