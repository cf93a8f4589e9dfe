// SQL for the hosts of clusters of kind `hosts`: each host, the facts and managed files its node agent last
// reported, what the gateway last saw of that agent, the commands addressed to one host, and the task-by-task
// progress of the plans it runs.
import type { Db } from '../store/database';
import { insertSql } from '../store/insert-sql';
import { revokeFound } from '../store/certificate-revocation';
import type { CommandRecord } from '../commands/commands-tables';
import type { Host, HostAgentStatus } from '../../contract/hosts';
import type { HostFacts, HostReportRequest, UnitObservation } from '../../wire/node-agent';

/** A host as stored: the contract's, with what the gateway last saw of its agent. */
export type HostRecord = Required<Host> & Pick<HostAgentStatus, 'agent_version' | 'last_seen' | 'certificate_serial'>;

export interface PlanTaskRecord {
  command_id: string;
  idx: number;
  task_id: string;
  kind: string;
  status: 'running' | 'succeeded' | 'failed' | 'skipped';
  started_at: string | null;
  finished_at: string | null;
  code: string | null;
  message: string | null;
  body: unknown;
}

type RawHost = Omit<HostRecord, 'facts' | 'managed' | 'units'> & { facts: string | null; managed: string | null; units: string | null };
const parseHost = (r: RawHost): HostRecord => ({
  ...r,
  facts: r.facts === null ? null : (JSON.parse(r.facts) as HostFacts),
  managed: r.managed === null ? null : (JSON.parse(r.managed) as HostReportRequest['managed']),
  units: r.units === null ? null : (JSON.parse(r.units) as Record<string, UnitObservation>),
});
type RawCommand = Omit<CommandRecord, 'args' | 'envelope' | 'result'> & { args: string; envelope: string; result: string | null };
const parseCommand = (r: RawCommand): CommandRecord => ({
  ...r,
  args: JSON.parse(r.args) as unknown,
  envelope: JSON.parse(r.envelope) as unknown,
  result: r.result === null ? null : (JSON.parse(r.result) as unknown),
});

export class HostsTables {
  constructor(private readonly db: Db) {}

  insert(row: Pick<HostRecord, 'id' | 'cluster_id' | 'name' | 'address' | 'created_at'>): void {
    this.db.prepare(insertSql('hosts', 'id, cluster_id, name, address, created_at')).run(row);
  }

  get(id: string): HostRecord | undefined {
    const r = this.db.prepare('SELECT * FROM hosts WHERE id = ?').get(id) as RawHost | undefined;
    return r && parseHost(r);
  }

  byName(clusterId: string, name: string): HostRecord | undefined {
    const r = this.db.prepare('SELECT * FROM hosts WHERE cluster_id = ? AND name = ?').get(clusterId, name) as RawHost | undefined;
    return r && parseHost(r);
  }

  list(clusterId: string): HostRecord[] {
    return (this.db.prepare('SELECT * FROM hosts WHERE cluster_id = ? ORDER BY name').all(clusterId) as RawHost[]).map(parseHost);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM hosts WHERE id = ?').run(id).changes === 1;
  }

  /** What the gateway saw of the host's agent on a request. */
  seen(id: string, at: string, agentVersion: string | null, serial: string): void {
    this.db
      .prepare('UPDATE hosts SET last_seen = ?, agent_version = coalesce(?, agent_version), certificate_serial = ? WHERE id = ?')
      .run(at, agentVersion, serial, id);
  }

  setReport(id: string, at: string, facts: unknown, managed: unknown, units?: unknown): void {
    this.db
      .prepare('UPDATE hosts SET facts = ?, facts_at = ?, managed = ?, units = ? WHERE id = ?')
      .run(JSON.stringify(facts), at, JSON.stringify(managed), units === undefined ? null : JSON.stringify(units), id);
  }

  /** Binds a certificate the CA just recorded to its host. */
  bindCertificate(serial: string, hostId: string): void {
    this.db.prepare('UPDATE certificates SET host_id = ? WHERE serial = ?').run(hostId, serial);
  }

  /** Revokes every live certificate of a host; returns the serials revoked. */
  revokeCertificates(hostId: string, at: string): string[] {
    return revokeFound(this.db, 'SELECT serial FROM certificates WHERE host_id = ? AND revoked_at IS NULL', [hostId], at);
  }

  certificates(hostId: string): { serial: string; revoked_at: string | null }[] {
    return this.db.prepare('SELECT serial, revoked_at FROM certificates WHERE host_id = ? ORDER BY issued_at').all(hostId) as {
      serial: string;
      revoked_at: string | null;
    }[];
  }

  insertCommand(
    c: Omit<CommandRecord, 'delivered_at' | 'deliveries' | 'completed_at' | 'code' | 'result' | 'state'>,
    hostId: string,
  ): void {
    this.db
      .prepare(
        `INSERT INTO commands (id, cluster_id, host_id, op, args, envelope, state, requested_by, created_at, not_after)
         VALUES (@id, @cluster_id, @host_id, @op, @args, @envelope, 'queued', @requested_by, @created_at, @not_after)`,
      )
      .run({ ...c, host_id: hostId, args: JSON.stringify(c.args), envelope: JSON.stringify(c.envelope) });
  }

  /** The host a command is addressed to, or null for a cluster agent's command. */
  commandHost(commandId: string): { host_id: string | null } | undefined {
    return this.db.prepare('SELECT host_id FROM commands WHERE id = ?').get(commandId) as { host_id: string | null } | undefined;
  }

  /**
   * Commands to hand to a host's agent now: queued ones, and delivered ones unacknowledged since `redeliverBefore`
   * (`state IN (...)` searches commands_host by host and state, not every command the host ever had).
   */
  due(hostId: string, redeliverBefore: string, now: string): CommandRecord[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM commands WHERE host_id = ? AND state IN ('queued', 'delivered') AND not_after > ?
           AND (state = 'queued' OR delivered_at <= ?)
         ORDER BY created_at, id LIMIT 100`,
      )
      .all(hostId, now, redeliverBefore) as RawCommand[];
    return rows.map(parseCommand);
  }

  nextWakeup(hostId: string): string | undefined {
    const r = this.db.prepare("SELECT min(delivered_at) AS t FROM commands WHERE host_id = ? AND state = 'delivered'").get(hostId) as {
      t: string | null;
    };
    return r.t ?? undefined;
  }

  listCommands(hostId: string, limit = 50): CommandRecord[] {
    return (
      this.db.prepare('SELECT * FROM commands WHERE host_id = ? ORDER BY created_at DESC, id LIMIT ?').all(hostId, limit) as RawCommand[]
    ).map(parseCommand);
  }

  /** Records a task's progress; a finished task is never turned back to running by a late report. */
  upsertTask(t: PlanTaskRecord): void {
    this.db
      .prepare(
        `INSERT INTO plan_tasks (command_id, idx, task_id, kind, status, started_at, finished_at, code, message, body)
         VALUES (@command_id, @idx, @task_id, @kind, @status, @started_at, @finished_at, @code, @message, @body)
         ON CONFLICT (command_id, idx) DO UPDATE SET status = excluded.status, started_at = coalesce(excluded.started_at, started_at),
           finished_at = excluded.finished_at, code = excluded.code, message = excluded.message, body = excluded.body
         WHERE plan_tasks.status = 'running' OR excluded.status <> 'running'`,
      )
      .run({ ...t, body: JSON.stringify(t.body) });
  }

  tasks(commandId: string): PlanTaskRecord[] {
    return (
      this.db.prepare('SELECT * FROM plan_tasks WHERE command_id = ? ORDER BY idx').all(commandId) as (Omit<PlanTaskRecord, 'body'> & {
        body: string;
      })[]
    ).map((r) => ({ ...r, body: JSON.parse(r.body) as unknown }));
  }
}
