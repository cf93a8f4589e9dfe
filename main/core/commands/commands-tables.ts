// SQL for signed commands on their way to agents, the receipts that come back, each cluster's desired
// components, and what the gateway last saw of each agent.
import type { Db } from '../store/database';
import type { Command, CommandState } from '../../contract/commands';

export type { CommandState };

/** A command as stored: the contract's command with the signed envelope the agents are handed. */
export type CommandRecord = Command & { envelope: unknown };

export interface ReceiptRecord {
  id: number;
  command_id: string;
  cluster_id: string;
  received_at: string;
  status: string;
  code: string | null;
  replica: string | null;
  body: unknown;
}

export interface AgentStatusRecord {
  cluster_id: string;
  last_seen: string;
  agent_version: string | null;
  leader_replica: string | null;
  certificate_serial: string | null;
}

type Raw<T, K extends keyof T> = Omit<T, K> & { [P in K]: string | null };

const parseCommand = (r: Raw<CommandRecord, 'args' | 'envelope' | 'result'>): CommandRecord => ({
  ...r,
  args: JSON.parse(r.args ?? 'null') as unknown,
  envelope: JSON.parse(r.envelope ?? 'null') as unknown,
  result: r.result === null ? null : (JSON.parse(r.result) as unknown),
});

/** Receipts kept per command: an agent resends one until it is acknowledged, a few times at most. */
export const RECEIPTS_KEPT = 10;

export class CommandsTables {
  constructor(private readonly db: Db) {}

  insert(c: Omit<CommandRecord, 'delivered_at' | 'deliveries' | 'completed_at' | 'code' | 'result' | 'state'>): void {
    this.db
      .prepare(
        `INSERT INTO commands (id, cluster_id, op, args, envelope, state, requested_by, created_at, not_after)
         VALUES (@id, @cluster_id, @op, @args, @envelope, 'queued', @requested_by, @created_at, @not_after)`,
      )
      .run({ ...c, args: JSON.stringify(c.args), envelope: JSON.stringify(c.envelope) });
  }

  get(id: string): CommandRecord | undefined {
    const r = this.db.prepare('SELECT * FROM commands WHERE id = ?').get(id) as
      Raw<CommandRecord, 'args' | 'envelope' | 'result'> | undefined;
    return r && parseCommand(r);
  }

  /** Whose a command is, without reading (or parsing) its envelope: what a receipt is checked against. */
  owner(id: string): { cluster_id: string; host_id: string | null } | undefined {
    return this.db.prepare('SELECT cluster_id, host_id FROM commands WHERE id = ?').get(id) as
      { cluster_id: string; host_id: string | null } | undefined;
  }

  list(filter: { cluster_id?: string; limit?: number } = {}): CommandRecord[] {
    const limit = Math.min(Math.max(filter.limit ?? 200, 1), 1000);
    const rows = filter.cluster_id
      ? this.db.prepare('SELECT * FROM commands WHERE cluster_id = ? ORDER BY created_at DESC, id LIMIT ?').all(filter.cluster_id, limit)
      : this.db.prepare('SELECT * FROM commands ORDER BY created_at DESC, id LIMIT ?').all(limit);
    return (rows as Raw<CommandRecord, 'args' | 'envelope' | 'result'>[]).map(parseCommand);
  }

  /**
   * Commands to hand to a cluster's agent now: queued ones, and delivered ones unacknowledged since `redeliverBefore`.
   * `state IN (...)` lets SQLite search commands_pending by cluster and state: with the condition only inside the
   * OR it searched by cluster alone and read every command the cluster ever had at each poll.
   */
  due(clusterId: string, redeliverBefore: string, now: string): CommandRecord[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM commands WHERE cluster_id = ? AND state IN ('queued', 'delivered') AND host_id IS NULL AND not_after > ?
           AND (state = 'queued' OR delivered_at <= ?)
         ORDER BY created_at, id LIMIT 100`,
      )
      .all(clusterId, now, redeliverBefore) as Raw<CommandRecord, 'args' | 'envelope' | 'result'>[];
    return rows.map(parseCommand);
  }

  markDelivered(id: string, at: string): void {
    this.db
      .prepare(
        "UPDATE commands SET state = 'delivered', delivered_at = ?, deliveries = deliveries + 1 WHERE id = ? AND state IN ('queued','delivered')",
      )
      .run(at, id);
  }

  /** Sets the final state once: a later receipt for a finished command changes nothing. */
  complete(id: string, state: Exclude<CommandState, 'queued' | 'delivered'>, code: string | null, result: unknown, at: string): boolean {
    return (
      this.db
        .prepare("UPDATE commands SET state = ?, code = ?, result = ?, completed_at = ? WHERE id = ? AND state IN ('queued','delivered')")
        .run(state, code, result === undefined ? null : JSON.stringify(result), at, id).changes === 1
    );
  }

  /** Replaces a command's result whatever its state (a journal read's text dropped once its asker has it). */
  setResult(id: string, result: unknown): void {
    this.db.prepare('UPDATE commands SET result = ? WHERE id = ?').run(JSON.stringify(result), id);
  }

  nextWakeup(clusterId: string): string | undefined {
    return (
      (
        this.db
          .prepare("SELECT min(delivered_at) AS t FROM commands WHERE cluster_id = ? AND host_id IS NULL AND state = 'delivered'")
          .get(clusterId) as {
          t: string | null;
        }
      ).t ?? undefined
    );
  }

  /**
   * Stores a receipt, unless its command has RECEIPTS_KEPT already: the first ones (the one that closed the command
   * among them) are kept, and an agent sending the same receipt again and again no longer grows the table.
   */
  insertReceipt(r: Omit<ReceiptRecord, 'id'>): boolean {
    return (
      this.db
        .prepare(
          `INSERT INTO receipts (command_id, cluster_id, received_at, status, code, replica, body)
           SELECT @command_id, @cluster_id, @received_at, @status, @code, @replica, @body
           WHERE (SELECT count(*) FROM receipts WHERE command_id = @command_id) < ${RECEIPTS_KEPT}`,
        )
        .run({ ...r, body: JSON.stringify(r.body) }).changes === 1
    );
  }

  receipts(commandId: string): ReceiptRecord[] {
    return (this.db.prepare('SELECT * FROM receipts WHERE command_id = ? ORDER BY id').all(commandId) as Raw<ReceiptRecord, 'body'>[]).map(
      (r) => ({ ...r, body: JSON.parse(r.body ?? 'null') as unknown }),
    );
  }

  upsertAgentStatus(s: AgentStatusRecord): void {
    this.db
      .prepare(
        `INSERT INTO agent_status (cluster_id, last_seen, agent_version, leader_replica, certificate_serial)
         VALUES (@cluster_id, @last_seen, @agent_version, @leader_replica, @certificate_serial)
         ON CONFLICT (cluster_id) DO UPDATE SET last_seen = excluded.last_seen,
           agent_version = coalesce(excluded.agent_version, agent_version),
           leader_replica = coalesce(excluded.leader_replica, leader_replica),
           certificate_serial = excluded.certificate_serial`,
      )
      .run(s);
  }

  agentStatus(clusterId: string): AgentStatusRecord | undefined {
    return this.db.prepare('SELECT * FROM agent_status WHERE cluster_id = ?').get(clusterId) as AgentStatusRecord | undefined;
  }

  /** The specs a component was applied with, newest first (from the signed apply commands' args). */
  specHistory(clusterId: string, name: string, limit = 50): unknown[] {
    const rows = this.db
      .prepare(
        "SELECT json_extract(args, '$.spec') AS spec FROM commands WHERE cluster_id = ? AND op = 'managedcomponent.apply' AND json_extract(args, '$.name') = ? ORDER BY created_at DESC, rowid DESC LIMIT ?",
      )
      .all(clusterId, name, limit) as { spec: string | null }[];
    return rows.filter((r) => r.spec !== null).map((r) => JSON.parse(r.spec!) as unknown);
  }

  desiredState(clusterId: string): { generation: number; components: Record<string, unknown> } | undefined {
    const r = this.db.prepare('SELECT generation, components FROM desired_state WHERE cluster_id = ?').get(clusterId) as
      { generation: number; components: string } | undefined;
    return r && { generation: r.generation, components: JSON.parse(r.components) as Record<string, unknown> };
  }

  setDesiredState(clusterId: string, generation: number, components: Record<string, unknown>, at: string): void {
    this.db
      .prepare(
        `INSERT INTO desired_state (cluster_id, generation, components, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (cluster_id) DO UPDATE SET generation = excluded.generation, components = excluded.components, updated_at = excluded.updated_at`,
      )
      .run(clusterId, generation, JSON.stringify(components), at);
  }
}
