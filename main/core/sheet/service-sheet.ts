// The component sheet: a service of a cluster as its agents observed it. On a hosts cluster: each instance's
// unit as systemd had it at the host's last report, the liveness the agent ran, the files the agent wrote with
// their hashes and drift, the ports seen listening; on a Kubernetes cluster: the ManagedComponent's status the
// agent read. What was only requested (an operation's intended state) never stands for an observation.
import type { Tables } from '../domain-tables';
import type { Catalog } from '../catalog/catalog';
import type { CatalogDescriptor } from '../catalog/catalog-schema';
import type { Clock } from '../clock';
import type { Commands } from '../commands/commands';
import type { Drift } from '../drift/drift';
import type { HostCommands } from '../hosts/host-commands';
import type { StoredMetricsSample } from '../hosts/host-metrics-table';
import { MAX_JOURNAL_LINES, UNIT_DIR } from '../../wire/node-agent';
import { serviceOfPath } from '../drift/drift';
import { found, NotFoundError, ValidationError } from '../errors';
import type { Services, ServiceView } from '../services/services';
import type { HostRecord } from '../hosts/hosts-tables';
import type {
  InstanceState,
  MetricsPoint,
  ObservedState,
  ServiceLog,
  ServiceMetrics,
  ServiceSheet,
  SheetDependency,
  SheetFile,
  SheetInstance,
  UnobservedReason,
} from '../../contract/sheet-types';
import { MAX_METRICS_MINUTES } from '../../contract/service-sheet';
import { endpointHandshakes } from './endpoint-certificates';

export interface ServiceSheetDeps {
  tables: Tables<'clusters' | 'hostMetrics' | 'hosts'>;
  clock: Clock;
  catalog: () => Catalog | null;
  services: Services;
  drift: Drift;
  commands: Commands;
  hostCommands: HostCommands;
  /** The SANs of the certificates the cluster's service CA issued for the service, by serial. */
  certificateNames: (clusterId: string, service: string) => ReadonlyMap<string, string[]>;
}

/** How long a logs read waits for the agents before it shows who did not answer. */
const LOGS_WAIT_MS = 20_000;
const REFRESH_WAIT_MS = 15_000;

/** systemd's ActiveState in the sheet's words. */
const INSTANCE_STATE: Record<string, InstanceState> = {
  active: 'running',
  reloading: 'running',
  activating: 'starting',
  deactivating: 'stopping',
  inactive: 'stopped',
  failed: 'failed',
};

/** Catalog file modes that keep a file from other users: what holds a secret. */
const SECRET_MODES = new Set([0o600, 0o640, 0o400, 0o440]);

export function overallState(states: InstanceState[]): ObservedState {
  const seen = states.filter((s) => s !== 'not_observed');
  if (seen.length === 0) return 'not_observed';
  const running = seen.filter((s) => s === 'running').length;
  if (running === states.length) return 'running';
  if (running > 0) return 'degraded';
  return seen.some((s) => s === 'failed') ? 'failed' : 'stopped';
}

export class ServiceSheets {
  constructor(private readonly d: ServiceSheetDeps) {}

  private descriptor(service: string): CatalogDescriptor {
    return found(this.d.catalog()?.service(service), 'service', service);
  }

  /** The installed service's view, or null when it is not installed on this cluster. */
  private installed(clusterId: string, service: string): ServiceView | null {
    return this.d.services.list(clusterId).find((s) => s.service === service) ?? null;
  }

  /** One host's instance of a unit as its agent last reported it. */
  private static unitState(h: HostRecord | undefined, unit: string): InstanceState {
    const o = h?.units?.[unit];
    if (!h?.units) return 'not_observed';
    if (!o || o.load_state === 'not-found') return 'missing';
    return INSTANCE_STATE[o.active_state] ?? 'not_observed';
  }

  sheet(clusterId: string, service: string): ServiceSheet {
    const cluster = found(this.d.tables.clusters.get(clusterId), 'cluster', clusterId);
    if (cluster.kind === 'kubernetes') return this.kubernetesSheet(clusterId, service);
    const desc = this.descriptor(service);
    // The cluster's services, listed once: this one's view and its dependencies' come from it.
    const views = new Map(this.d.services.list(clusterId).map((v) => [v.service, v]));
    const view = views.get(service) ?? null;
    const hosts = (view?.hosts ?? []).map((h) => this.d.tables.hosts.get(h.id)).filter((h): h is HostRecord => h !== undefined);
    const instances = hosts.map((h) => this.instance(h, desc, view!));
    const drift = this.d.drift.view(clusterId).findings.filter((f) => f.service === service && f.resolved_at === null);
    const files = this.files(hosts, service, drift);
    const unobserved: ServiceSheet['unobserved'] = {};
    const reason: UnobservedReason | null = !view ? 'not_installed' : hosts.every((h) => !h.facts_at) ? 'no_report_yet' : null;
    if (reason) for (const tab of ['instances', 'configuration', 'logs', 'metrics'] as const) unobserved[tab] = reason;
    if (!view) Object.assign(unobserved, { operations: 'not_installed', upgrade: 'not_installed', audit: 'not_installed' });
    if (!desc.stateful) unobserved.backups = 'not_stateful';
    const deps = this.dependencies(views, desc);
    if (deps.depends_on.length === 0 && deps.required_by.length === 0) unobserved.dependencies = 'no_dependencies';
    const functional = view?.checks?.functional?.outcome.evidence as { exporter?: { version?: string } } | undefined;
    const state = view ? overallState(instances.map((i) => i.state)) : 'not_observed';
    return {
      cluster_id: clusterId,
      cluster_kind: 'hosts',
      service,
      title: desc.title,
      description: desc.description,
      stateful: desc.stateful,
      unobserved,
      overview: {
        state,
        instances: { total: instances.length, running: instances.filter((i) => i.state === 'running').length },
        version: view && view.state !== 'installing' ? view.version : null,
        reported_version: functional?.exporter?.version ?? null,
        config_version: view?.config_version ?? null,
        checks: view?.checks ?? null,
        open_drift: drift.map((f) => ({ path: f.path, state: f.state, host_name: f.host_name })),
        operation: view?.operation
          ? {
              id: view.operation.id,
              action: view.operation.action,
              state: view.operation.state,
              code: view.operation.code,
              finished_at: view.operation.finished_at,
            }
          : null,
        observed_at: instances.reduce<string | null>((a, i) => (i.observed_at && (!a || i.observed_at < a) ? i.observed_at : a), null),
      },
      instances,
      configuration: { files },
      dependencies: deps,
      security: {
        endpoints: Object.entries(desc.ports).map(([name, p]) => ({
          ...(p.tls === true && view
            ? endpointHandshakes(p.port, hosts, view.checks ?? null, this.d.certificateNames(clusterId, service), this.d.clock.now())
            : { handshakes: [], tls_versions: [] }),
          name,
          port: p.port,
          description: p.description ?? '',
          tls_capable: p.tls === true,
          // A port TLS can serve does once the service holds certificates of the cluster's service CA.
          tls_enabled: p.tls === true && view !== null && this.d.services.tlsEnabled(clusterId, service),
          listening: hosts.map((h) => ({
            host_name: h.name,
            listening: h.facts?.listening_ports ? h.facts.listening_ports.includes(p.port) : null,
          })),
        })),
        secrets: files.filter((f) => this.isSecret(desc, f.path)),
      },
    };
  }

  private instance(h: HostRecord, desc: CatalogDescriptor, view: ServiceView): SheetInstance {
    const unit = desc.unit.name;
    const o = h.units?.[unit];
    const live = view.checks?.liveness[h.id];
    const state = ServiceSheets.unitState(h, unit);
    return {
      name: h.name,
      host_id: h.id,
      address: h.address,
      unit,
      state,
      active_state: o?.active_state ?? null,
      sub_state: o?.sub_state ?? null,
      main_pid: o?.main_pid ?? null,
      since: o?.active_since ?? null,
      uptime_s:
        o?.active_since && h.facts_at ? Math.max(0, Math.round((Date.parse(h.facts_at) - Date.parse(o.active_since)) / 1000)) : null,
      restarts: o?.restarts ?? null,
      memory_bytes: o?.memory_bytes ?? null,
      liveness: live
        ? { at: live.at, status: live.outcome.status, code: live.outcome.error?.code ?? null, message: live.outcome.error?.message ?? null }
        : null,
      observed_at: h.units ? h.facts_at : null,
    };
  }

  private files(
    hosts: HostRecord[],
    service: string,
    drift: { path: string; host_name: string; state: SheetFile['drift'] }[],
  ): SheetFile[] {
    const out: SheetFile[] = [];
    for (const h of hosts) {
      // Files are keyed by their path, units by their name (written under UNIT_DIR), as the agent records them.
      const entries = [
        ...Object.entries(h.managed?.files ?? {}).map(([path, e]) => ({ path, kind: 'file' as const, e })),
        ...Object.entries(h.managed?.units ?? {}).map(([unit, e]) => ({ path: `${UNIT_DIR}/${unit}`, kind: 'unit' as const, e })),
      ];
      for (const { path, kind, e } of entries)
        if (serviceOfPath(path) === service)
          out.push({
            host_name: h.name,
            path,
            kind,
            sha256: e.sha256,
            size: e.size,
            written_at: e.written_at,
            drift: drift.find((f) => f.host_name === h.name && f.path === path)?.state ?? null,
          });
    }
    return out.sort((a, b) => a.host_name.localeCompare(b.host_name) || a.path.localeCompare(b.path));
  }

  private isSecret(desc: CatalogDescriptor, path: string): boolean {
    return desc.files.some((f) => SECRET_MODES.has(Number.parseInt(String(f.mode), 8)) && path.endsWith(f.path.split('/').pop() ?? '\0'));
  }

  private dependencies(views: Map<string, ServiceView>, desc: CatalogDescriptor): ServiceSheet['dependencies'] {
    const catalog = this.d.catalog();
    const dep = (name: string): SheetDependency => {
      const view = views.get(name) ?? null;
      const unit = catalog?.service(name)?.unit.name ?? '';
      const states = (view?.hosts ?? []).map((h) => ServiceSheets.unitState(this.d.tables.hosts.get(h.id), unit));
      return {
        service: name,
        title: catalog?.service(name)?.title ?? name,
        installed: view !== null,
        state: view ? overallState(states) : 'not_observed',
      };
    };
    return {
      depends_on: desc.depends_on.map(dep),
      required_by: (catalog?.services ?? []).filter((s) => s.depends_on.includes(desc.service)).map((s) => dep(s.service)),
    };
  }

  /**
   * Asks each host of the service for a report now (facts, units, a metrics sample) and answers the sheet once
   * they arrived, or after REFRESH_WAIT_MS with what stands: a unit stopped by hand shows within one refresh.
   */
  async refresh(clusterId: string, service: string, actor: string): Promise<ServiceSheet> {
    const cluster = found(this.d.tables.clusters.get(clusterId), 'cluster', clusterId);
    const view = cluster.kind === 'hosts' ? this.installed(clusterId, service) : null;
    const asked = (view?.hosts ?? []).map((h) => this.d.hostCommands.issueFactsReport(h.id, actor).id);
    if (asked.length > 0) await this.d.hostCommands.waitEnded(asked, REFRESH_WAIT_MS);
    return this.sheet(clusterId, service);
  }

  /**
   * Each host's figures over the last `minutes`: CPU busy from two consecutive samples' counters (a counter that
   * went back, a reboot, gives no point), memory and root file system used, and the unit's own CPU and memory.
   */
  metrics(clusterId: string, service: string, minutes: number): ServiceMetrics {
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_METRICS_MINUTES)
      throw new ValidationError('minutes', `minutes is a whole number from 1 to ${MAX_METRICS_MINUTES}`);
    const cluster = found(this.d.tables.clusters.get(clusterId), 'cluster', clusterId);
    if (cluster.kind === 'kubernetes') return { minutes, series: [], unobserved: 'kubernetes_no_metrics' };
    const desc = this.descriptor(service);
    const view = this.installed(clusterId, service);
    if (!view) return { minutes, series: [], unobserved: 'not_installed' };
    const since = new Date(this.d.clock.now().getTime() - minutes * 60_000).toISOString();
    const series = view.hosts.map((h) => {
      const samples = this.d.tables.hostMetrics.since(h.id, since);
      const last = samples.at(-1);
      return {
        host_id: h.id,
        host_name: h.name,
        source: last?.source ?? null,
        note: last?.note ?? null,
        filesystem_from_kernel: last?.filesystem_from_kernel === true,
        points: samples.map((s, i) => metricsPoint(samples[i - 1], s, desc.unit.name)),
      };
    });
    return { minutes, series, unobserved: series.every((s) => s.points.length === 0) ? 'no_report_yet' : null };
  }

  /** The last lines of each instance's journal, read by its agent; a host that does not answer in time says so. */
  async logs(clusterId: string, service: string, lines: number | undefined, actor: string): Promise<ServiceLog[]> {
    const n = lines ?? 200;
    if (!Number.isInteger(n) || n < 1 || n > MAX_JOURNAL_LINES)
      throw new ValidationError('lines', `lines is a whole number from 1 to ${MAX_JOURNAL_LINES}`);
    const cluster = found(this.d.tables.clusters.get(clusterId), 'cluster', clusterId);
    if (cluster.kind === 'kubernetes') return [];
    const unit = this.descriptor(service).unit.name;
    const view = found(this.installed(clusterId, service), 'service', service);
    const reads = await this.d.hostCommands.readJournals(
      view.hosts.map((h) => ({ hostId: h.id, unit })),
      n,
      actor,
      LOGS_WAIT_MS,
    );
    const readAt = this.d.clock.now().toISOString();
    return reads.map((r, i) => ({
      host_id: r.hostId,
      host_name: view.hosts[i]!.name,
      unit,
      state: r.state,
      code: r.code,
      text: r.text,
      read_at: readAt,
    }));
  }

  /** A ManagedComponent of a Kubernetes cluster: its status as the agent last read it; no hosts, units or journals. */
  private kubernetesSheet(clusterId: string, name: string): ServiceSheet {
    const view = this.d.commands.components(clusterId);
    const desired = view.desired[name];
    const observed = view.observed?.[name];
    if (!desired && !observed) throw new NotFoundError('component', name);
    const status = (observed?.status ?? {}) as { phase?: string; ready?: string };
    const [ready, replicas] = (status.ready ?? '').split('/').map(Number);
    // Found by the agent but never given a status by the operator: nothing observed of it running or not.
    const state: ObservedState =
      !observed || !status.phase
        ? 'not_observed'
        : status.phase === 'Failed'
          ? 'failed'
          : status.phase === 'Ready'
            ? 'running'
            : (ready ?? 0) > 0
              ? 'degraded'
              : 'stopped';
    const spec = (observed?.spec ?? desired ?? {}) as { component?: string };
    const desc = spec.component ? this.d.catalog()?.service(spec.component) : undefined;
    return {
      cluster_id: clusterId,
      cluster_kind: 'kubernetes',
      service: name,
      title: desc?.title ?? name,
      description: desc?.description ?? '',
      stateful: desc?.stateful ?? false,
      unobserved: {
        instances: 'kubernetes_no_instances',
        configuration: 'kubernetes_no_files',
        dependencies: 'kubernetes_no_instances',
        logs: 'kubernetes_no_logs',
        metrics: 'kubernetes_no_metrics',
        security: 'kubernetes_no_ports',
        operations: 'kubernetes_no_operations',
        upgrade: 'kubernetes_no_operations',
        backups: 'kubernetes_no_operations',
        support: 'kubernetes_no_support',
        ...(observed ? {} : { overview: 'no_report_yet' as const }),
      },
      overview: {
        state,
        instances: { total: Number.isFinite(replicas) ? replicas! : 0, running: Number.isFinite(ready) ? ready! : 0 },
        version: observed ? ((observed.spec as { version?: string } | null)?.version ?? null) : null,
        reported_version: null,
        config_version: null,
        checks: null,
        open_drift: [],
        operation: null,
        observed_at: view.observed_at ?? null,
      },
      instances: [],
      configuration: { files: [] },
      dependencies: { depends_on: [], required_by: [] },
      security: { endpoints: [], secrets: [] },
    };
  }
}

/** One chart point from a sample and the one before it (rates need two). */
export function metricsPoint(prev: StoredMetricsSample | undefined, s: StoredMetricsSample, unit: string): MetricsPoint {
  const t = Date.parse(s.at) / 1000;
  const dt = prev ? t - Date.parse(prev.at) / 1000 : 0;
  const dTotal = prev?.cpu && s.cpu ? s.cpu.total_s - prev.cpu.total_s : 0;
  const dIdle = prev?.cpu && s.cpu ? s.cpu.idle_s - prev.cpu.idle_s : 0;
  const u = s.units[unit];
  const pu = prev?.units[unit];
  const dUnit = u?.cpu_ns != null && pu?.cpu_ns != null ? u.cpu_ns - pu.cpu_ns : -1;
  return {
    t,
    cpu_busy: dTotal > 0 && dIdle >= 0 && dIdle <= dTotal ? 1 - dIdle / dTotal : null,
    memory_used_bytes: s.memory ? s.memory.total_bytes - s.memory.available_bytes : null,
    memory_total_bytes: s.memory?.total_bytes ?? null,
    fs_used_bytes: s.filesystem ? s.filesystem.size_bytes - s.filesystem.available_bytes : null,
    fs_size_bytes: s.filesystem?.size_bytes ?? null,
    unit_cpu: dt > 0 && dUnit >= 0 ? dUnit / 1e9 / dt : null,
    unit_memory_bytes: u?.memory_bytes ?? null,
  };
}
