// The phases of a certificates renewal: one host at a time, a new key and its CSR made beside the key in use, the
// manager's signature, then the new certificate and key put in place, the service restarted, and its liveness and
// the cluster's readiness passing before the next host is touched; the functional test once all are done.
import { CoreError } from '../errors';
import type { ServiceOperationAction } from '../../contract/services';
import type { PlanTask } from '../../wire/plan';
import type { OperationPhase } from './services-tables';
import { afterStart, checkTask, livenessTask, finalChecks, resolve, watchTask, type Instance, type PlanInput } from './service-plan';
import { CERTIFICATES_PHASE, certificatesPhase, certificateWrites } from './service-tls';

/** The operation the manager's schedule starts for a service whose certificates passed two thirds of their life. */
export const RENEWAL_ACTION = 'certificates.renew' satisfies ServiceOperationAction;

/**
 * Where the new key waits until its certificate is signed. The key in use stays where it is meanwhile, so the
 * service's key and certificate on disk (which the checks and a restart read) still match until both are replaced.
 */
export const stagedKeyPath = (inst: Instance): string => `${inst.ctx.tls.key_file}.next`;

/** On one host: a new key (rotate), made at the staged path, and the CSR the manager signs. */
function renewalCsrPhase(input: PlanInput, inst: Instance, label: string): OperationPhase {
  const { desc } = resolve(input);
  const phase = certificatesPhase(desc, [inst], label);
  const plans = phase.plans.map((p) => ({
    ...p,
    args: {
      title: `new key and certificate request of ${label} on ${inst.host.name}`,
      tasks: p.args.tasks.map((t): PlanTask => (t.kind === 'tls.csr' ? { ...t, key_path: stagedKeyPath(inst), rotate: true } : t)),
    },
  }));
  // Named as the install's certificates phase: the operation signs the CSRs that phase returns (operation-machine.ts).
  return { name: CERTIFICATES_PHASE, plans };
}

/**
 * On the same host: the signed certificate and the CA written, the new key moved over the old one (a rename in
 * one folder: atomic), the key's record taken again by a tls.csr that keeps it (so drift sees the new key as the
 * one it wrote), the staged path forgotten, then the restart. A restart, not a reload: every service reads its key
 * through LoadCredential=, which systemd copies when the unit starts (etcd's reload of its certificate on each new
 * connection, NATS's --signal reload and the node exporter's re-read of its web config would all pair the new
 * certificate with the old key). Then this host's liveness and the cluster's readiness, each given the time a
 * member takes to rejoin, before the operation moves to the next host.
 */
function renewalSwitchPhase(input: PlanInput, inst: Instance, label: string): OperationPhase {
  const { desc } = resolve(input);
  const unit = desc.unit.name;
  const staged = stagedKeyPath(inst);
  const adopt = certificatesPhase(desc, [inst], label).plans[0]!.args.tasks.map((t): PlanTask => ({
    ...t,
    id: 'adopt-key',
    title: `record the new key of ${desc.service} as the one in use`,
  }));
  return {
    name: `renew on ${inst.host.name}`,
    plans: [
      {
        host_id: inst.host.id,
        args: {
          title: `renew the certificate of ${label} on ${inst.host.name}`,
          tasks: [
            ...certificateWrites(inst),
            {
              id: 'move-key',
              kind: 'command.run',
              title: `put the new key in place of ${inst.ctx.tls.key_file}`,
              argv: ['mv', '-f', staged, inst.ctx.tls.key_file],
            },
            ...adopt,
            { id: 'forget-staged-key', kind: 'file.remove', title: `forget ${staged}`, path: staged },
            { id: 'restart', kind: 'systemd.restart', title: `systemctl restart ${unit}`, unit },
            afterStart(livenessTask(desc, inst)),
            afterStart(checkTask('readiness', 'readiness', desc.checks.readiness, inst.ctx)),
            watchTask(desc, inst),
          ],
        },
      },
    ],
  };
}

/**
 * The renewal of the certificates held on `hostIds` (those due), in the order of the service's hosts; the other
 * hosts are not touched. Pure, as the other plans: the same inputs give the same phases.
 */
export function renewalPhases(input: PlanInput, hostIds: readonly string[]): OperationPhase[] {
  const { desc, instances } = resolve(input);
  if (!instances[0]!.ctx.tls.enabled)
    throw new CoreError('conflict', `${desc.service} runs without TLS on this cluster: it has no certificate to renew`);
  const due = instances.filter((inst) => hostIds.includes(inst.host.id));
  if (due.length === 0) throw new CoreError('invalid_field', 'a renewal renews the certificate of at least one host', { field: 'hosts' });
  const label = `${desc.service} ${input.version}`;
  return [
    ...due.flatMap((inst) => [renewalCsrPhase(input, inst, label), renewalSwitchPhase(input, inst, label)]),
    finalChecks(desc, instances[0]!, false),
  ];
}

/** After a renewal's phase that put a host's new certificate in use, the one it replaced is superseded (not after a CSR). */
export const supersedesAfter = (action: ServiceOperationAction, phase: OperationPhase | undefined): boolean =>
  action === RENEWAL_ACTION && phase !== undefined && phase.name !== CERTIFICATES_PHASE;
