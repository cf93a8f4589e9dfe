// The restore of a service of several members (etcd's three) from the one backup a set holds on one of them: its
// files verified where they are and read by the manager, carried to every other member (their sha256 checked by the
// manager, then again by each agent on arrival), every member stopped, each restored from the same files with the
// whole member list and a cluster token new to this restore, all started together, then the cluster's readiness and
// functional test. A service of one instance takes backup-plan.ts's restore. Pure, but for the new token.
import { createHash, randomBytes } from 'node:crypto';
import { CoreError } from '../errors';
import type { CatalogStep } from '../catalog/catalog-schema';
import { MAX_INLINE_BYTES, type PlanResult, type PlanTask } from '../../wire/plan';
import {
  backupBlock,
  catalogVerifyTask,
  oneInstanceRestorePhases,
  stepTasks,
  VERIFY_PHASE,
  verifyTasks,
  withToken,
  type RestoreOptions,
} from './backup-plan';
import type { ServiceBackupRecord } from './service-backups-tables';
import { afterStart, finalChecks, livenessTask, resolve, watchTask, writeTasks, type Instance, type PlanInput } from './service-plan';
import type { OperationPhase } from './services-tables';

export const CARRY_PHASE = 'copy the backup to every member';
export const STOP_PHASE = 'stop every member';
export const RESTORE_PHASE = 'restore every member';
/** The phases of a restore that leave the service as it was: one failing there did not touch it. */
export const RESTORE_UNCHANGING_PHASES: readonly string[] = [VERIFY_PHASE, CARRY_PHASE];

/** A cluster token no restore used before: etcd derives the cluster's and its members' identities from it. */
export const newClusterToken = (service: string): string => `navin-${service}-restore-${randomBytes(8).toString('hex')}`;

/** The phases of a restore of `backup`: of one instance, or of every member of a cluster. */
export function restorePhases(input: PlanInput, backup: ServiceBackupRecord, opts: { rewrite: boolean; token?: string }): OperationPhase[] {
  const options: RestoreOptions = { rewrite: opts.rewrite, token: opts.token ?? newClusterToken(input.service) };
  return input.hosts.length > 1 ? clusterRestorePhases(input, backup, options) : oneInstanceRestorePhases(input, backup, options);
}

const isStop = (s: CatalogStep): boolean => 'unit' in s && s.unit === 'stop';

function clusterRestorePhases(input: PlanInput, backup: ServiceBackupRecord, opts: RestoreOptions): OperationPhase[] {
  const block = backupBlock(input);
  const { desc, instances } = resolve({ ...input, backup_dir: backup.dir });
  const holder = instances.find((i) => i.host.id === backup.host_id);
  if (!holder)
    throw new CoreError(
      'restore_unsupported',
      `the backup is on a host that no longer runs ${input.service}: its files cannot be read from a member`,
      { backup_host_id: backup.host_id, limits: block.restore.limits ?? null },
    );
  const files = Object.entries(backup.files);
  const large = files.find(([, f]) => f.size > MAX_INLINE_BYTES);
  if (large)
    throw new CoreError(
      'restore_unsupported',
      `${large[1].path} is ${large[1].size} bytes: a restore of several members carries each file through the manager, at most ${MAX_INLINE_BYTES} bytes`,
      { file: large[0], size: large[1].size, max_bytes: MAX_INLINE_BYTES, limits: block.restore.limits ?? null },
    );
  const unit = desc.unit.name;
  // The catalog's leading stops run on every member before any is restored: no member restored from the backup
  // meets one still serving the old data.
  const firstOther = block.restore.steps.findIndex((s) => !isStop(s));
  const stops = block.restore.steps.slice(0, firstOther < 0 ? block.restore.steps.length : firstOther);
  const steps = block.restore.steps.slice(stops.length);
  const others = instances.filter((i) => i !== holder);

  const onEach = (name: string, on: Instance[], title: string, tasks: (inst: Instance) => PlanTask[]): OperationPhase => ({
    name,
    plans: on.map((inst) => ({ host_id: inst.host.id, args: { title: `${title} on ${inst.host.name}`, tasks: tasks(inst) } })),
  });
  const read = files.map(([name, f]): PlanTask => ({ id: `read:${name}`, kind: 'file.read', title: `read ${f.path}`, path: f.path }));
  // The bytes are the verification's to read: the manager puts them in when it issues this phase (carriedPlans).
  const carry = (inst: Instance): PlanTask[] => [
    { id: 'copy:folder', kind: 'command.run', title: `mkdir ${backup.dir}`, argv: ['mkdir', '-p', '-m', '0700', backup.dir] },
    ...files.map(([name, f]): PlanTask => ({
      id: `copy:${name}`,
      kind: 'file.write',
      title: `write ${f.path} as backed up`,
      path: f.path,
      content_base64: '',
      sha256: f.sha256,
      mode: '0600',
    })),
    ...(block.verify ? [catalogVerifyTask(block.verify, inst.ctx)] : []),
  ];
  const restore = (inst: Instance): PlanTask[] => [
    ...(opts.rewrite ? writeTasks(desc, inst) : []),
    ...stepTasks(steps, unit, withToken(inst.ctx, opts.token), 'restore'),
    // The copies were only the way in: the set's files stay on the member that took them.
    ...(inst === holder
      ? []
      : files.map(([name, f]): PlanTask => ({
          id: `drop:${name}`,
          kind: 'file.remove',
          title: `remove the copy ${f.path}`,
          path: f.path,
        }))),
    afterStart(livenessTask(desc, inst)),
    watchTask(desc, inst),
  ];
  return [
    onEach(VERIFY_PHASE, [holder], `verify the ${input.service} backup`, (inst) => [...verifyTasks(input, backup, inst.ctx), ...read]),
    onEach(CARRY_PHASE, others, `copy the ${input.service} backup`, carry),
    ...(stops.length > 0
      ? [onEach(STOP_PHASE, instances, `stop ${input.service}`, (inst) => stepTasks(stops, unit, inst.ctx, 'restore'))]
      : []),
    onEach(RESTORE_PHASE, instances, `restore ${input.service} ${input.version}`, restore),
    finalChecks(desc, instances[0]!, true),
  ];
}

export type Carried = { ok: true; plans: OperationPhase['plans'] } | { ok: false; code: string; message: string };

/**
 * The copy phase's plans with the bytes the verification read on the member that holds the backup: each file must
 * hash to the sha256 recorded when it was taken, which its copy task carries (the agent checks it again on arrival).
 */
export function carriedPlans(plans: OperationPhase['plans'], verified: Partial<PlanResult> | null): Carried {
  const outputs = new Map((verified?.tasks ?? []).map((t) => [t.id, t.output]));
  let refused: Carried | null = null;
  const filled = plans.map((p) => ({
    ...p,
    args: {
      ...p.args,
      tasks: p.args.tasks.map((t): PlanTask => {
        if (t.kind !== 'file.write' || !t.id.startsWith('copy:')) return t;
        const content = outputs.get(`read:${t.id.slice('copy:'.length)}`)?.content_base64;
        if (typeof content !== 'string') {
          refused ??= { ok: false, code: 'backup_incomplete', message: `the verification read no bytes of ${t.path}` };
          return t;
        }
        const sha = createHash('sha256').update(Buffer.from(content, 'base64')).digest('hex');
        if (sha !== t.sha256)
          refused ??= { ok: false, code: 'backup_modified', message: `${t.path} as read hashes to ${sha}, not the recorded ${t.sha256}` };
        return { ...t, content_base64: content };
      }),
    },
  }));
  return refused ?? { ok: true, plans: filled };
}
