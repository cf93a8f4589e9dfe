// Drift of hosts clusters: a scan asks each host's agent to hash every file and unit the console wrote, opens a
// finding for each one modified, deleted or replaced outside the console (and the cluster's config_drift alert
// with the first), and resolves each finding when a scan finds it right again (put back by hand, or rewritten by
// the console: the last writer tells which) or no longer managed (removed with its service). Realign rewrites a
// finding's service through the lifecycle gate, unless the cluster is in report-only mode. Every change is audited
// (and so reaches syslog); scans run on demand and every hour.
import type { Tables } from '../domain-tables';
import { randomUUID } from 'node:crypto';
import type { PublicUser } from '../accounts/accounts';
import type { Clock } from '../clock';
import { CoreError, found } from '../errors';
import { Periodic } from '../periodic';
import type { CoreEvents } from '../events';
import type { HostCommands } from '../hosts/host-commands';
import type { Hosts } from '../hosts/hosts';
import type { OperationView, Services } from '../services/services';
import { DRIFT_ALERT, type DriftMode, type DriftView } from '../../contract/drift';
import type { DriftFindingRecord } from './drift-tables';
import type { Store } from '../store/store';
import { isDriftItem, type DriftItem, type DriftScanResult } from '../../wire/node-agent';

export const DRIFT_SCAN_INTERVAL_MS = 60 * 60_000;

export interface DriftDeps {
  store: Store;
  tables: Tables<'clusters' | 'commands' | 'drift' | 'hosts' | 'services'>;
  clock: Clock;
  hosts: Hosts;
  hostCommands: HostCommands;
  services: Services;
  events: CoreEvents;
}

/** The service a managed path belongs to: /etc/navin/<s>/…, /opt/navin/<s>/…, /var/lib/navin/<s>/…, navin-<s>.service. */
export function serviceOfPath(path: string): string | null {
  const m =
    /^\/(?:etc|opt|var\/lib)\/navin\/([a-z0-9-]+)\//.exec(path) ?? /^\/etc\/systemd\/system\/navin-([a-z0-9-]+)\.service$/.exec(path);
  return m?.[1] ?? null;
}

export class Drift {
  private readonly schedule = new Periodic(() => this.scanAll());

  constructor(private readonly d: DriftDeps) {}

  /** Scans every hosts cluster that has services, every hour, in this process (the manager that serves). */
  startSchedule(intervalMs = DRIFT_SCAN_INTERVAL_MS): void {
    this.schedule.start(intervalMs);
  }

  stopSchedule(): void {
    this.schedule.stop();
  }

  private async scanAll(): Promise<void> {
    // One cluster's failed scan does not keep the clusters after it from theirs.
    for (const c of this.d.tables.clusters.list())
      if (c.kind === 'hosts' && this.d.tables.services.list(c.id).length > 0)
        await this.scan(c.id, 'drift-schedule').catch(() => undefined);
  }

  view(clusterId: string): DriftView {
    this.d.hosts.hostsCluster(clusterId);
    const { tables } = this.d;
    const names = new Map(tables.hosts.list(clusterId).map((h) => [h.id, h.name]));
    const installed = new Set(tables.services.list(clusterId).map((s) => s.service));
    const open = tables.drift.open(clusterId);
    return {
      cluster_id: clusterId,
      mode: tables.drift.mode(clusterId),
      alert: open.length ? { code: DRIFT_ALERT, open_findings: open.length, since: open.map((f) => f.detected_at).sort()[0]! } : null,
      findings: tables.drift.list(clusterId, 500).map((f) => {
        const service = serviceOfPath(f.path);
        return { ...f, host_name: names.get(f.host_id) ?? f.host_id, service: service && installed.has(service) ? service : null };
      }),
    };
  }

  setMode(clusterId: string, mode: DriftMode, actor: string): DriftView {
    this.d.hosts.hostsCluster(clusterId);
    this.d.store.tx(() => {
      this.d.tables.drift.setMode(clusterId, mode);
      this.d.store.audit.append({ actor, action: 'drift.mode', cluster_id: clusterId, target: null, details: { mode } });
    });
    this.d.events.emit('drift.changed', { cluster_id: clusterId });
    return this.view(clusterId);
  }

  /** Asks every host of the cluster to hash its managed files and units, waits for the answers, and records what differs. */
  async scan(clusterId: string, actor: string, timeoutMs = 30_000): Promise<DriftView> {
    this.d.hosts.hostsCluster(clusterId);
    const { store, tables, hostCommands } = this.d;
    const hosts = tables.hosts.list(clusterId);
    const issued = hosts.map((h) => ({ host: h, command: hostCommands.issueDriftScan(h.id, actor).id }));
    await hostCommands.waitEnded(
      issued.map((i) => i.command),
      timeoutMs,
    );
    const answered: string[] = [];
    const unanswered: string[] = [];
    const at = this.d.clock.now().toISOString();
    const before = tables.drift.open(clusterId).length;
    store.tx(() => {
      for (const { host, command } of issued) {
        const c = tables.commands.get(command);
        const result = c?.state === 'succeeded' ? (c.result as DriftScanResult | null) : null;
        if (!result || !Array.isArray(result.items)) {
          unanswered.push(host.name);
          continue;
        }
        // An item that is not one is the agent's fault, not the scan's: left out (it would fail the whole scan).
        const items = (result.items as unknown[]).filter(isDriftItem);
        answered.push(host.name);
        this.record(clusterId, host.id, host.name, items, at, actor);
      }
      const after = tables.drift.open(clusterId).length;
      store.audit.append({
        actor,
        action: 'drift.scan',
        cluster_id: clusterId,
        target: null,
        details: { hosts: answered, unanswered, open_findings: after },
      });
      if (before === 0 && after > 0)
        store.audit.append({
          actor,
          action: 'alert.opened',
          cluster_id: clusterId,
          target: DRIFT_ALERT,
          details: { open_findings: after },
        });
      if (before > 0 && after === 0)
        store.audit.append({ actor, action: 'alert.cleared', cluster_id: clusterId, target: DRIFT_ALERT, details: {} });
    });
    this.d.events.emit('drift.changed', { cluster_id: clusterId });
    return { ...this.view(clusterId), scanned: { hosts: answered, unanswered } };
  }

  private record(clusterId: string, hostId: string, hostName: string, items: DriftItem[], at: string, actor: string): void {
    const { store, tables } = this.d;
    const byPath = new Map(items.map((i) => [i.path, i]));
    const open = new Map(
      tables.drift
        .open(clusterId)
        .filter((f) => f.host_id === hostId)
        .map((f) => [f.path, f]),
    );
    const resolve = (f: DriftFindingRecord, resolution: 'restored' | 'realigned' | 'removed'): void => {
      tables.drift.resolve(f.id, at, resolution);
      store.audit.append({
        actor,
        action: 'drift.resolved',
        cluster_id: clusterId,
        target: f.path,
        details: { finding_id: f.id, host: hostName, resolution },
      });
    };
    for (const f of open.values()) {
      const item = byPath.get(f.path);
      // No longer managed: its service (or the file) was removed by the console.
      if (!item) resolve(f, 'removed');
      // Right again: rewritten by a newer command of the console, or put back by hand as the console wrote it.
      else if (item.state === 'ok') resolve(f, item.command_id !== f.command_id ? 'realigned' : 'restored');
      else tables.drift.seen(f.id, at, item.state, item.observed_sha256, item.detail ?? null);
    }
    for (const item of items) {
      if (item.state === 'ok' || open.has(item.path)) continue;
      const id = randomUUID();
      tables.drift.insert({
        id,
        cluster_id: clusterId,
        host_id: hostId,
        path: item.path,
        kind: item.kind,
        state: item.state,
        expected_sha256: item.expected_sha256,
        observed_sha256: item.observed_sha256,
        detail: item.detail ?? null,
        command_id: item.command_id,
        detected_at: at,
        last_seen_at: at,
      });
      store.audit.append({
        actor,
        action: 'drift.detected',
        cluster_id: clusterId,
        target: item.path,
        details: {
          finding_id: id,
          host: hostName,
          state: item.state,
          expected_sha256: item.expected_sha256,
          observed_sha256: item.observed_sha256,
        },
      });
    }
  }

  /** Rewrites the finding's service as the console last configured it (files, unit, binaries), through the gate. */
  async realign(findingId: string, user: PublicUser, approvalId: string | undefined): Promise<OperationView> {
    const f = found(this.d.tables.drift.get(findingId), 'finding', findingId);
    if (f.resolved_at) throw new CoreError('conflict', `this finding was resolved (${f.resolution}) at ${f.resolved_at}`);
    if (this.d.tables.drift.mode(f.cluster_id) === 'report_only')
      throw new CoreError('drift_report_only', 'this cluster is in report-only mode (a change freeze): drift is found, never rewritten');
    const service = serviceOfPath(f.path);
    if (!service || !this.d.tables.services.get(f.cluster_id, service))
      throw new CoreError('conflict', `${f.path} belongs to no service installed on this cluster: nothing to realign it from`);
    return this.d.services.realign(f.cluster_id, service, user, approvalId);
  }
}
