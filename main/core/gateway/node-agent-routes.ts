// The gateway's node-agent routes, for a client certificate bound to a host: the long poll of that host's own
// commands, the facts report, receipts and plan progress. A receipt or progress report for another host's
// command is refused 403 (and audited by HostCommands).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../clock';
import type { CoreEvents } from '../events';
import type { Store } from '../store/store';
import { ForbiddenReceiptError } from '../commands/commands';
import type { HostCommands } from '../hosts/host-commands';
import { AGENT_HEADERS, type Receipt } from '../../wire/protocol';
import { hostFactsProblem, isManagedUnit, NODE_AGENT_PATHS, type HostReportRequest } from '../../wire/node-agent';
import type { CheckOutcome } from '../../wire/service-checks';
import type { PlanProgressRequest } from '../../wire/plan';
import { CoreError } from '../errors';
import { statusOf } from '../../contract/error-codes';
import type { LastSeenWrites } from './last-seen-writes';
import { receiptProblem } from './receipt-shape';
import { parseTimestamp } from '../../wire/timestamps';

export interface NodeAgentRouteDeps {
  store: Store;
  clock: Clock;
  events: CoreEvents;
  hosts: HostCommands;
  /** Shared by all requests: when a host's last-seen record is worth writing. */
  lastSeen: LastSeenWrites;
  readJson(): Promise<unknown>;
  reply(status: number, body: unknown): void;
  poll(waitS: number): Promise<unknown[]>;
  longPollMaxS: number;
}

export async function nodeAgentRoute(
  req: IncomingMessage,
  _res: ServerResponse,
  url: URL,
  who: { hostId: string; serial: string },
  d: NodeAgentRouteDeps,
): Promise<void> {
  const host = d.store.hosts.get(who.hostId);
  if (!host) throw new CoreError('certificate_refused', 'the host of this certificate was removed');
  const actor = `agent:host:${who.hostId}`;
  const version = req.headers[AGENT_HEADERS.version];
  const now = d.clock.now();
  const agentVersion = (Array.isArray(version) ? version[0] : version)?.slice(0, 64) ?? null;
  // Like a cluster agent's: not worth an fsync each (see Store.bookkeeping).
  d.lastSeen.note(`host:${who.hostId}`, now.getTime(), { agent_version: agentVersion, certificate_serial: who.serial }, () =>
    d.store.bookkeeping(() => d.store.hosts.seen(who.hostId, now.toISOString(), agentVersion, who.serial)),
  );
  d.events.emit('host.changed', { id: who.hostId, cluster_id: host.cluster_id });
  // As for a cluster agent: the cluster's own state (derived from its hosts') may have changed with it.
  d.events.emit('agent.seen', { cluster_id: host.cluster_id, host_id: who.hostId });

  if (req.method === 'GET' && url.pathname === NODE_AGENT_PATHS.commands) {
    const wait = Math.max(0, Math.min(Number(url.searchParams.get('wait') ?? d.longPollMaxS) || 0, d.longPollMaxS));
    return d.reply(200, { commands: await d.poll(wait) });
  }
  if (req.method === 'POST' && url.pathname === NODE_AGENT_PATHS.report) {
    const body = (await d.readJson()) as HostReportRequest;
    if (typeof body !== 'object' || body === null || typeof body.facts !== 'object' || body.facts === null)
      throw new CoreError('bad_request', 'a report is {agent_version, facts, managed}');
    // The preflight, the acceptance and every install gate read these facts: a malformed set is refused here.
    const factsProblem = hostFactsProblem(body.facts);
    if (factsProblem) throw new CoreError('bad_request', factsProblem);
    const liveness = livenessOf(body.liveness);
    if (liveness === null) throw new CoreError('bad_request', 'liveness is {"<unit>": {kind, status: "pass" | "fail", started_at, …}}');
    const shape = observationProblem(body);
    if (shape) throw new CoreError('bad_request', shape);
    d.hosts.recordReport(who.hostId, body, liveness);
    return d.reply(200, { stored: true });
  }
  if (req.method === 'POST' && url.pathname === NODE_AGENT_PATHS.receipts) {
    const body = (await d.readJson()) as { receipts?: Receipt[] };
    if (!Array.isArray(body?.receipts)) throw new CoreError('bad_request', 'receipts is a list');
    const accepted: string[] = [];
    let refused: string | undefined;
    // Every receipt is checked before any is recorded: a bad one late in the batch used to leave it half-applied.
    for (const r of body.receipts as unknown[]) {
      const problem = receiptProblem(r);
      if (problem) throw new CoreError('bad_request', problem);
    }
    for (const r of body.receipts) {
      try {
        d.hosts.recordReceipt(who.hostId, r, actor);
        accepted.push(r.command_id);
      } catch (error) {
        if (!(error instanceof ForbiddenReceiptError)) throw error;
        refused = r.command_id;
      }
    }
    if (refused)
      return d.reply(statusOf('forbidden'), {
        error: { code: 'forbidden', message: `command ${refused} is not a command of this host` },
        accepted,
      });
    return d.reply(200, { accepted });
  }
  if (req.method === 'POST' && url.pathname === NODE_AGENT_PATHS.progress) {
    const body = (await d.readJson()) as PlanProgressRequest;
    if (typeof body?.command_id !== 'string' || typeof body.task !== 'object' || body.task === null)
      throw new CoreError('bad_request', 'progress is {command_id, total, task}');
    try {
      d.hosts.recordProgress(who.hostId, body, actor);
    } catch (error) {
      if (error instanceof ForbiddenReceiptError)
        throw new CoreError('forbidden', `command ${body.command_id} is not a command of this host`);
      throw error;
    }
    return d.reply(200, { stored: true });
  }
  throw new CoreError('not_found', `no gateway route ${req.method} ${url.pathname}`);
}

/** The liveness outcomes of a report: undefined when absent, null when malformed (the report is refused). */
function livenessOf(value: unknown): Record<string, CheckOutcome> | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value as Record<string, unknown>);
  const ok = entries.every(
    ([unit, o]) =>
      isManagedUnit(unit) &&
      typeof o === 'object' &&
      o !== null &&
      ((o as CheckOutcome).status === 'pass' || (o as CheckOutcome).status === 'fail') &&
      typeof (o as CheckOutcome).kind === 'string' &&
      // A time, not any text: services keep the latest outcome by it, and "zzzz" would have outranked every later one.
      parseTimestamp((o as CheckOutcome).started_at) !== null,
  );
  return ok ? (value as Record<string, CheckOutcome>) : null;
}

const isCount = (v: unknown): boolean => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0);

/** What is wrong with a report's units and metrics (both optional), or null. */
function observationProblem(body: HostReportRequest): string | null {
  if (body.units !== undefined) {
    if (typeof body.units !== 'object' || body.units === null || Array.isArray(body.units)) return 'units is {"<unit>": {active_state, …}}';
    for (const [unit, o] of Object.entries(body.units)) {
      if (!isManagedUnit(unit) || typeof o !== 'object' || o === null) return `units: ${unit} is not a managed unit's observation`;
      if (typeof o.active_state !== 'string' || typeof o.sub_state !== 'string' || typeof o.load_state !== 'string')
        return `units: ${unit} has no load, active and sub state`;
      if (![o.main_pid, o.restarts, o.memory_bytes, o.cpu_ns].every(isCount)) return `units: ${unit} has a count that is not a number`;
      if (o.active_since !== null && (typeof o.active_since !== 'string' || Number.isNaN(Date.parse(o.active_since))))
        return `units: ${unit}'s active_since is not a time`;
    }
  }
  const m = body.metrics;
  if (m !== undefined) {
    if (typeof m !== 'object' || m === null || (m.source !== 'node_exporter' && m.source !== 'host'))
      return 'metrics is {at, source: "node_exporter" | "host", cpu, memory, filesystem}';
    const parts = [m.cpu, m.memory, m.filesystem];
    if (parts.some((p) => p !== null && (typeof p !== 'object' || Array.isArray(p))))
      return 'metrics: cpu, memory and filesystem are objects or null';
    const numbers = [
      m.cpu?.total_s,
      m.cpu?.idle_s,
      m.memory?.total_bytes,
      m.memory?.available_bytes,
      m.filesystem?.size_bytes,
      m.filesystem?.available_bytes,
    ];
    if (!numbers.every((n) => n === undefined || (isCount(n) && n !== null))) return 'metrics: a figure is not a non-negative number';
  }
  return null;
}
