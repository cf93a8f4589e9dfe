// The preflight checks of a Kubernetes cluster, run at the start of every install and upgrade and on demand:
// API, nodes, capacity, DNS, TLS, versions, mirror and the profile's rules. The run is recorded and audited;
// one critical failure fails the operation before anything is written to the cluster.
import type { Tables } from '../domain-tables';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { Registration } from '../clusters/registration';
import { found } from '../errors';
import type { CoreEvents } from '../events';
import type { Listeners } from '../listeners';
import { dnsServers } from '../checks/dns-settings';
import type { ProfileEvaluation, Profiles } from '../profiles/profiles';
import { KUBE_READ_TIMEOUT_MS } from '../checks/component-checks';
import type { Store } from '../store/store';
import type { PreflightOutcome, PreflightRun, PreflightTrigger } from '../../contract/profiles';
import type { CheckResult } from '../../contract/check-types';
import type { Catalog } from '../catalog/catalog';
import { dnsChecks } from './dns-checks';
import { kubeChecks } from './kube-checks';
import { caCheck, endpointChecks, gatewayCheck } from './tls-checks';
import { agentVersionCheck, artifactChecks } from './version-checks';
import { hostChecks } from '../hosts/host-preflight';
import { serviceHostChecks } from '../hosts/service-host-checks';

export interface PreflightDeps {
  store: Store;
  tables: Tables<'clusterAccess' | 'clusters' | 'commands' | 'hosts' | 'lifecycle' | 'reports' | 'settings'>;
  clock: Clock;
  registration: Registration;
  listeners: Listeners;
  profiles: Profiles;
  caPem: string;
  managerVersion: string;
  events: CoreEvents;
  timeoutMs?: number;
  /** The service catalog: a component of a catalog version is installed from the catalog's artifacts. */
  catalog?: Catalog | null;
}

export type { PreflightRun };

export interface PreflightRequest {
  trigger: PreflightTrigger;
  actor: string;
  /** The component an install or upgrade is about to write, with its new spec. */
  target?: { name: string; spec: unknown };
  /** A profile evaluation the caller already made for this operation. */
  evaluation?: ProfileEvaluation;
  /** A catalog service about to be installed or changed on these hosts of a hosts cluster (their catalog checks). */
  service?: { hosts: string[]; install: boolean };
}

export const outcomeOf = (checks: CheckResult[]): PreflightOutcome =>
  checks.some((c) => c.status === 'fail') ? 'fail' : checks.some((c) => c.status === 'warn') ? 'warn' : 'pass';

/** The catalog's checks of a service on the hosts chosen for it. */
function serviceChecks(tables: Tables<'hosts'>, catalog: Catalog | null, req: PreflightRequest, at: string): CheckResult[] {
  const desc = req.target && req.service ? catalog?.service(req.target.name) : undefined;
  if (!desc || !req.service) return [];
  const hosts = req.service.hosts.map((id) => tables.hosts.get(id)).filter((h) => h !== undefined);
  return serviceHostChecks(
    desc,
    hosts.map((h) => ({ name: h.name, facts: h.facts })),
    { portsHeldByService: !req.service.install },
    at,
  );
}

export class Preflight {
  constructor(private readonly d: PreflightDeps) {}

  async run(clusterId: string, req: PreflightRequest): Promise<PreflightRun> {
    const { store, tables, clock } = this.d;
    const cluster = found(tables.clusters.get(clusterId), 'cluster', clusterId);
    const started_at = clock.now().toISOString();
    const at = (): string => clock.now().toISOString();
    const desired = { ...((tables.commands.desiredState(clusterId)?.components ?? {}) as Record<string, Record<string, unknown>>) };
    if (req.target) desired[req.target.name] = req.target.spec as Record<string, unknown>;
    // The mirror lookups concern what is about to be installed; on demand, everything the cluster should run.
    const toInstall = req.target ? { [req.target.name]: desired[req.target.name]! } : desired;
    const timeout = this.d.timeoutMs ?? KUBE_READ_TIMEOUT_MS;
    // A hosts cluster is judged on the facts of its node agents instead of a Kubernetes API.
    const hosts = cluster.kind === 'hosts';
    const [kube, dns, gateway, endpoints, artifacts, evaluation] = await Promise.all([
      hosts
        ? hostChecks(tables, clock, clusterId, this.d.managerVersion, at())
        : kubeChecks(clusterId, this.d.registration, tables, desired, at, timeout),
      dnsChecks(cluster, dnsServers(tables), at, this.d.timeoutMs),
      gatewayCheck(this.d.listeners, this.d.caPem, clock.now(), at),
      endpointChecks(tables, this.d.caPem, desired, clock.now(), at, this.d.timeoutMs),
      artifactChecks(tables.reports.mirror(), cluster.profile, toInstall, at, this.d.timeoutMs, this.d.catalog),
      req.evaluation ?? this.d.profiles.evaluate(clusterId),
    ]);
    const checks = [
      ...kube,
      ...dns,
      caCheck(this.d.caPem, clock.now(), at()),
      gateway,
      ...endpoints,
      ...(hosts ? [] : [agentVersionCheck(tables, clusterId, this.d.managerVersion, at())]),
      ...artifacts,
      ...serviceChecks(tables, this.d.catalog ?? null, req, at()),
      ...evaluation.rules,
    ];
    const run: PreflightRun = {
      id: randomUUID(),
      cluster_id: clusterId,
      trigger: req.trigger,
      target: req.target?.name ?? null,
      started_at,
      finished_at: at(),
      outcome: outcomeOf(checks),
      checks,
      run_by: req.actor,
    };
    store.tx(() => {
      tables.lifecycle.insertPreflight(run);
      store.audit.append({
        actor: req.actor,
        action: 'preflight.run',
        cluster_id: clusterId,
        target: run.target,
        details: {
          run_id: run.id,
          trigger: run.trigger,
          outcome: run.outcome,
          failed: checks.filter((c) => c.status === 'fail').map((c) => c.id),
        },
      });
    });
    this.d.events.emit('preflight.completed', { id: run.id, cluster_id: run.cluster_id, outcome: run.outcome });
    return run;
  }

  latest(clusterId: string): PreflightRun | undefined {
    return this.d.tables.lifecycle.latestPreflight(clusterId);
  }
}
