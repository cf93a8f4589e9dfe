// Starting a service operation: the lifecycle gate, the phases of plans the catalog gives for its action (an
// upgrade's rollback sealed first, its backup first when the service keeps data), then, in one transaction, the
// service's and configuration's records, the operation, its audit row and its first phase's plans.
import { randomUUID } from 'node:crypto';
import type { PublicUser } from '../accounts/accounts';
import { ConflictError } from '../errors';
import { operationChange } from '../lifecycle/actions';
import type { HostRecord } from '../hosts/hosts-tables';
import type { ServiceBackupRecord } from './service-backups-tables';
import type { OperationPhase, ServiceSettings } from './services-tables';
import { backupPhase } from './backup-plan';
import { restorePhases } from './cluster-restore';
import { announceOperation, issuePhase } from './operation-machine';
import { installedService, requireCatalog } from './service-input';
import { operationPhases, rollingPhases, type OperationAction, type PlanHost } from './service-plan';
import { revokeAll, tlsChoice, type TlsChoice } from './service-tls';
import { RENEWAL_ACTION, renewalPhases } from './renewal-plan';
import type { ServicesDeps } from './services-deps';
import { TLS_ENABLE, tlsMigrationPhases } from './tls-migration';

/** How long an upgrade's sealed rollback stays valid: longer than any upgrade of a few hosts takes. */
const SEALED_VALIDITY_S = 6 * 3600;

/** What an operation works on: the service, the version it brings, its hosts and settings (an upgrade's `from`). */
export interface OperationTarget {
  service: string;
  version: string;
  hosts: HostRecord[];
  config: ServiceSettings;
  from?: string;
  /** An install's: TLS asked for (true) or refused (false); absent, the cluster's profile decides. */
  tls?: boolean;
}

export interface StartExtra {
  backupSetId?: string;
  restore?: { backup: ServiceBackupRecord; rewrite: boolean };
  gate?: boolean;
  /** A rollback's: the configuration version it brings back. */
  restoredConfig?: number;
  /** A certificates renewal's: the hosts whose certificates are due (renewal-plan.ts). */
  renewHosts?: readonly string[];
}

/** Starts an operation (refused while another runs on the service) and answers its id. */
export async function startOperation(
  d: ServicesDeps,
  clusterId: string,
  action: OperationAction,
  target: OperationTarget,
  user: Pick<PublicUser, 'id' | 'name'> & Partial<PublicUser>,
  approvalId: string | undefined,
  extra: StartExtra = {},
): Promise<string> {
  const { store, tables, clock } = d;
  const { service, version, hosts, config, from } = target;
  if (tables.services.runningFor(clusterId, service))
    throw new ConflictError('operation_running', `an operation on ${service} is still running`);
  // A migration to TLS brings certificates to every host, whatever the service held before.
  const tls = action === TLS_ENABLE ? { tls: true, certificates: true } : chooseTls(d, clusterId, action, target);
  // An install is judged on the hosts as they are now (ports freed by an uninstall a moment ago, say), not on
  // facts up to a minute old: the agents are asked for fresh facts first, briefly.
  if (action === 'install') await refreshFacts(d, hosts, user.name);
  // The checks and the functional test change nothing: they pass no gate but the role that asks for them. A
  // renewal is the manager's own, changing no version, setting or host: no one is there to approve it.
  const gated = action !== 'check' && action !== 'functional_test' && action !== RENEWAL_ACTION && extra.gate !== false;
  const admission = gated
    ? await d.lifecycle.admit(
        clusterId,
        {
          action: action === 'realign' || action === TLS_ENABLE ? 'configuration' : action,
          service,
          spec: { component: service, version },
          change: operationChange(action, { version, hosts: hosts.map((h) => h.id), settings: config, backup_set_id: extra.backupSetId }),
        },
        user as PublicUser,
        approvalId,
        { hosts: hosts.map((h) => h.id), install: action === 'install' },
      )
    : null;
  const mirror = tables.reports.mirror();
  const input = {
    catalog: requireCatalog(d.catalog),
    clusterId,
    service,
    version,
    hosts: planHosts(hosts),
    settings: config,
    mirror: mirror.url ? { url: mirror.url, ca_pem: mirror.ca_pem } : null,
    tls,
  };
  // An upgrade walks the hosts canary first; its rollback plans are signed now, before anything runs (sealed).
  const rolling = action === 'upgrade' || action === 'rollback' ? rollingPhases(input, action === 'upgrade' ? from! : null) : null;
  // An upgrade of a service that keeps data backs it up first, under a set of its own.
  const preBackup = action === 'upgrade' && requireCatalog(d.catalog).service(service)?.backup ? randomUUID() : null;
  const setId = extra.backupSetId ?? preBackup;
  let phases: OperationPhase[];
  if (action === 'backup') phases = [backupPhase(input, setId!)];
  else if (action === 'restore') phases = restorePhases(input, extra.restore!.backup, { rewrite: extra.restore!.rewrite });
  else if (action === RENEWAL_ACTION) phases = renewalPhases(input, extra.renewHosts ?? []);
  else if (action === TLS_ENABLE) phases = tlsMigrationPhases(input);
  else if (rolling) phases = preBackup ? [backupPhase({ ...input, version: from! }, preBackup), ...rolling.phases] : rolling.phases;
  else phases = operationPhases(action, input);
  const sealed = rolling?.rollback.map((p) => d.hostCommands.seal(p.host_id, p.args, SEALED_VALIDITY_S)) ?? null;
  const id = randomUUID();
  const now = clock.now().toISOString();
  store.tx(() => {
    if (tables.services.runningFor(clusterId, service))
      throw new ConflictError('operation_running', `an operation on ${service} is still running`);
    if (action === 'install') {
      tables.services.deleteConfigVersions(clusterId, service);
      // What a failed install before left in use goes: the new install's choice of TLS alone stands.
      revokeAll(d.certificates, clusterId, service);
    }
    if (action === 'install' || action === 'configuration' || (action === 'rollback' && extra.restoredConfig !== undefined))
      tables.services.addConfigVersion({
        cluster_id: clusterId,
        service,
        config,
        operation_id: id,
        restored_from: action === 'rollback' ? extra.restoredConfig! : null,
        created_at: now,
      });
    if (action === 'install')
      tables.services.put({
        cluster_id: clusterId,
        service,
        version,
        hosts: hosts.map((h) => h.id),
        config,
        state: 'installing',
        updated_at: now,
      });
    else if (action === 'configuration' || action === 'rollback')
      tables.services.put({ ...installedService(tables, clusterId, service), config, updated_at: now });
    else if (action === 'uninstall') tables.services.setState(clusterId, service, 'uninstalling', now);
    if (preBackup)
      tables.serviceBackups.insertSet({
        id: preBackup,
        cluster_id: clusterId,
        services: [service],
        reason: 'upgrade',
        requested_by: user.name,
        created_at: now,
      });
    tables.services.insertOperation({
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
    issuePhase(d, tables.services.operation(id)!, 0, user.name);
  });
  if (admission?.fourEyes) d.events.emit('approval.changed', { id: approvalId!, cluster_id: clusterId });
  announceOperation(d.events, clusterId, service, id);
  return id;
}

/** Asks each host's agent for its facts and waits until they arrived, at most `timeoutMs` (then the preflight warns). */
async function refreshFacts(d: ServicesDeps, hosts: HostRecord[], actor: string, timeoutMs = 10_000): Promise<void> {
  const since = d.clock.now().toISOString();
  for (const h of hosts) d.hostCommands.issueFactsReport(h.id, actor);
  const deadline = performance.now() + timeoutMs;
  const fresh = (): boolean => hosts.every((h) => (d.tables.hosts.get(h.id)?.facts_at ?? '') >= since);
  while (!fresh() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** TLS or not: an install chooses (by the cluster's profile, or as asked under development); the others keep it. */
function chooseTls(d: ServicesDeps, clusterId: string, action: OperationAction, target: OperationTarget): TlsChoice {
  const desc = requireCatalog(d.catalog).service(target.service);
  if (!desc) return { tls: false, certificates: false };
  return tlsChoice(desc, action, {
    profile: d.hosts.hostsCluster(clusterId).profile,
    asked: target.tls,
    hostIds: target.hosts.map((h) => h.id),
    inUse: () => d.certificates.inUse(clusterId, target.service),
  });
}

function planHosts(hosts: HostRecord[]): PlanHost[] {
  return hosts.map((h) => {
    if (!h.facts) throw new ConflictError('conflict', `host ${h.name} has not reported its facts yet: start its node agent first`);
    return { id: h.id, name: h.name, address: h.address, architecture: h.facts.architecture };
  });
}
