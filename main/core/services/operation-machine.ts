// The state machine of a service operation: when the plans of its current phase have all ended, it records their
// check outcomes (and a backup's files), then issues the next phase, queues the rollback sealed with a failed
// upgrade, starts a service again after a failed backup, or ends the operation and sets the service's state.
import { CoreError } from '../errors';
import type { CoreEvents } from '../events';
import { commandEnded } from '../hosts/host-plan-view';
import type { OperationPhase, OperationRecord, ServiceState } from './services-tables';
import type { PlanArgs, PlanResult } from '../../wire/plan';
import { BACKUP_PHASE, backupDir, backupFiles, RESTART_PHASE, restartAfterFailedBackup } from './backup-plan';
import { recordChecks } from './check-results';
import { CARRY_PHASE, carriedPlans, RESTORE_UNCHANGING_PHASES } from './cluster-restore';
import type { OperationAction } from './service-plan';
import { supersedesAfter } from './renewal-plan';
import {
  CERTIFICATES_PHASE,
  revokeAll,
  signCertificates,
  supersedeReplaced,
  withCertificates,
  type SignedCertificates,
} from './service-tls';
import type { ServicesDeps } from './services-deps';
import { fillMemberIds, MEMBER_IDS_PHASE } from './tls-migration';

export type OperationDeps = Pick<
  ServicesDeps,
  'certificates' | 'hosts' | 'store' | 'tables' | 'clock' | 'catalog' | 'hostCommands' | 'events'
>;

const FINAL_OK = 'succeeded';
const ROLLBACK_PHASE = 'rollback (sealed with the upgrade)';

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
  'tls.enable': 'running',
};

interface Failure {
  host: string;
  code: string;
  task: string | null;
  message: string;
}

/** Tells the console a service or its operation changed. */
export function announceOperation(events: CoreEvents, clusterId: string, service: string, operationId: string): void {
  events.emit('service.changed', { cluster_id: clusterId, service, operation_id: operationId });
}

/**
 * Signs and queues a phase's plans, one per host, and records them as the operation's current phase; after a
 * certificates phase, with the certificates signed from its CSRs written into their files.
 */
export function issuePhase(
  d: OperationDeps,
  op: OperationRecord,
  phase: number,
  actor: string,
  signed: SignedCertificates | null = null,
  carried: OperationPhase['plans'] | null = null,
): void {
  // A restore's copies are recorded as planned, without the backup's bytes: the signed commands hold them once.
  const plans = carried ?? withCertificates(op.phases[phase]!.plans, signed);
  // The phase as recorded is the one signed: its certificate files hold the certificates, as on the hosts.
  if (signed) d.tables.services.replacePlans(op.id, phase, plans);
  const issued = plans.map((p) => ({
    phase,
    host_id: p.host_id,
    command_id: d.hostCommands.issuePlan(p.host_id, p.args, actor, { allowFourEyes: true }).id,
  }));
  d.tables.services.setPhase(op.id, phase, [...op.plans, ...issued]);
}

/** The signed certificates written into every phase after the current one, recorded as they will be signed. */
function certificatesIntoLaterPhases(d: OperationDeps, op: OperationRecord, signed: SignedCertificates): void {
  for (let k = op.phase + 1; k < op.phases.length; k++) {
    const plans = withCertificates(op.phases[k]!.plans, signed);
    d.tables.services.replacePlans(op.id, k, plans);
    op.phases[k] = { ...op.phases[k]!, plans };
  }
}

/** Moves an operation on when its current phase's plans have all ended. */
export function advanceOperation(d: OperationDeps, operationId: string): void {
  const { store, tables, clock } = d;
  const changed = store.tx(() => {
    const op = tables.services.operation(operationId);
    if (!op || op.state !== 'running') return false;
    const current = op.plans.filter((p) => p.phase === op.phase).map((p) => ({ ...p, command: tables.commands.get(p.command_id) }));
    if (current.length === 0 || current.some((p) => !p.command || !commandEnded(p.command.state))) return false;
    const now = clock.now().toISOString();
    recordChecks(
      d,
      op,
      current.map((p) => ({ host_id: p.host_id, result: p.command!.result as Partial<PlanResult> | null })),
      now,
    );
    const rollingBack = op.phases[op.phase]?.name === ROLLBACK_PHASE;
    const backingUp = op.phases[op.phase]?.name === BACKUP_PHASE && op.backup_set_id !== null;
    let failure = failureOf(d, current);
    // The keys are made: the manager signs each host's CSR now, and the next phase writes the certificates.
    let signed: SignedCertificates | null = null;
    if (!failure && op.phases[op.phase]?.name === CERTIFICATES_PHASE) {
      const s = signCertificates(d, op, current);
      if (s.ok) {
        signed = s.signed;
        // A migration to TLS writes each host's files in that host's own phase, not only in the next one.
        certificatesIntoLaterPhases(d, op, signed);
      } else failure = { host: d.hosts.get(s.host_id).name, code: s.code, task: 'csr', message: s.message };
    }
    // A restore of several members: the bytes its verification read go into the copies to the other members.
    let carried: OperationPhase['plans'] | null = null;
    if (!failure && op.phases[op.phase + 1]?.name === CARRY_PHASE) {
      const c = carriedPlans(op.phases[op.phase + 1]!.plans, current[0]!.command!.result as Partial<PlanResult> | null);
      if (c.ok) carried = c.plans;
      else failure = { host: d.hosts.get(current[0]!.host_id).name, code: c.code, task: 'read', message: c.message };
    }
    // etcd moving to TLS: the member ids its readiness listed go into the peer URL updates that follow.
    if (!failure && op.phases[op.phase]?.name === MEMBER_IDS_PHASE) failure = fillMemberIds(d, op, current);
    if (op.phases[op.phase]?.name === RESTART_PHASE) {
      // The backup failed; the service its steps had stopped is running again (or says why not).
      const how = failure ? `starting it again failed: ${failure.message}` : 'the service was started again';
      tables.services.finishOperation(op.id, 'failed', op.code, `${op.message}; ${how}`, now);
      if (failure) tables.services.setState(op.cluster_id, op.service, 'failed', now);
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
    if (backingUp && !failure) failure = recordBackup(d, op, current[0]!, now);
    if (backingUp && op.action === 'upgrade')
      tables.serviceBackups.finishSet(
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
        tables.services.addPhase(op.id, { name: RESTART_PHASE, plans: [{ host_id: hostId, args }] }, code, message);
        const issued = {
          phase: op.phases.length,
          host_id: hostId,
          command_id: d.hostCommands.issuePlan(hostId, args, 'manager', { allowFourEyes: true }).id,
        };
        tables.services.setPhase(op.id, op.phases.length, [...op.plans, issued]);
        return true;
      }
      // A failed upgrade queues the rollback sealed with it, for the hosts it touched only (the canary first); a
      // failure of the backup it takes first touched none.
      if (op.action === 'upgrade' && !rollingBack && !backingUp && op.sealed) {
        const touched = new Set(op.plans.filter((p) => op.phases[p.phase]?.name !== BACKUP_PHASE).map((p) => p.host_id));
        const sealed = op.sealed.filter((x) => touched.has(x.host_id));
        tables.services.addPhase(
          op.id,
          { name: ROLLBACK_PHASE, plans: sealed.map((x) => ({ host_id: x.host_id, args: x.args as unknown as PlanArgs })) },
          code,
          message,
        );
        const issued = sealed.map((x) => ({
          phase: op.phases.length,
          host_id: x.host_id,
          command_id: d.hostCommands.issueSealed(x, 'manager').id,
        }));
        tables.services.setPhase(op.id, op.phases.length, [...op.plans, ...issued]);
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
      tables.services.finishOperation(
        op.id,
        'failed',
        rollingBack ? 'rollback_failed' : code,
        rollingBack ? `the rollback after "${op.message}" failed: ${message}` : message,
        now,
      );
      // A restore that stopped at its verification (or its copies) changed nothing: that is what verifying first is for.
      const changedHosts = op.action !== 'restore' || !RESTORE_UNCHANGING_PHASES.includes(op.phases[op.phase]!.name);
      if (
        changedHosts &&
        ['install', 'configuration', 'realign', 'start', 'restart', 'uninstall', 'rollback', 'restore', 'tls.enable'].includes(op.action)
      )
        tables.services.setState(op.cluster_id, op.service, 'failed', now);
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
      tables.services.finishOperation(op.id, 'failed', op.code, `${op.message}; rolled back to ${op.from_version}`, now);
      tables.services.setState(op.cluster_id, op.service, 'running', now);
      store.audit.append({
        actor: 'manager',
        action: 'service.upgrade_rolled_back',
        cluster_id: op.cluster_id,
        target: op.service,
        details: { operation_id: op.id, version: op.from_version },
      });
      return true;
    }
    // A renewal's host runs its new certificate: the one it replaced is superseded now, not only at the end.
    if (supersedesAfter(op.action, op.phases[op.phase])) supersedeReplaced(d.certificates, op.cluster_id, op.service);
    if (op.phase + 1 < op.phases.length) {
      issuePhase(d, op, op.phase + 1, op.requested_by, signed, carried);
      return true;
    }
    tables.services.finishOperation(op.id, 'succeeded', null, null, now);
    if (op.action === 'upgrade' || op.action === 'rollback' || op.action === 'restore')
      tables.services.setVersion(op.cluster_id, op.service, op.version, now);
    if (op.phases[0]?.name === CERTIFICATES_PHASE) supersedeReplaced(d.certificates, op.cluster_id, op.service);
    const after = AFTER[op.action];
    if (op.action === 'uninstall') {
      tables.services.delete(op.cluster_id, op.service);
      tables.services.deleteConfigVersions(op.cluster_id, op.service);
      // Its certificates go with it (their files are removed): installed again, it chooses TLS anew.
      revokeAll(d.certificates, op.cluster_id, op.service);
    } else if (after) tables.services.setState(op.cluster_id, op.service, after, now);
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
    const op = tables.services.operation(operationId)!;
    announceOperation(d.events, op.cluster_id, op.service, op.id);
  }
}

/** The first failed plan of a phase: its host, its code and which task failed with what message. */
function failureOf(
  d: Pick<OperationDeps, 'store' | 'tables'>,
  plans: { host_id: string; command?: { state: string; code: string | null; result: unknown } }[],
): Failure | null {
  const failed = plans.find((p) => p.command!.state !== FINAL_OK);
  if (!failed) return null;
  const c = failed.command!;
  const task = ((c.result as Partial<PlanResult> | null)?.tasks ?? []).find((t) => t.status === 'failed');
  const host = d.tables.hosts.get(failed.host_id)?.name ?? failed.host_id;
  return {
    host,
    code: c.code ?? 'plan_failed',
    task: task?.id ?? null,
    message: `${task ? `task ${task.id}` : 'the plan'} failed on ${host}${task?.message ? `: ${task.message}` : ''}`,
  };
}

/** Records the backup a phase took (its files with their sha256), or the failure if it did not report them all. */
function recordBackup(
  d: Pick<OperationDeps, 'store' | 'tables' | 'catalog'>,
  op: OperationRecord,
  plan: { host_id: string; command?: { result: unknown } },
  at: string,
): Failure | null {
  const setId = op.backup_set_id!;
  const result = plan.command!.result as Partial<PlanResult> | null;
  const hashed = (result?.tasks ?? []).find((t) => t.id === 'hash')?.output?.files as
    Record<string, { sha256: string; size: number }> | undefined;
  const names = (d.catalog()?.service(op.service)?.backup?.files ?? []).map((f) => f.name);
  const host = d.tables.hosts.get(plan.host_id)?.name ?? plan.host_id;
  try {
    d.tables.serviceBackups.put({
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
