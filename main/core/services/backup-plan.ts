// The phases of a backup and of a restore of a catalog service, from its `backup` block: the backup on the first
// host (its steps, then the sha256 of every file it produced), the restore verified first (every hash, then the
// catalog's own verification) so that a modified file stops it before anything is stopped; a service of several
// members is restored by cluster-restore.ts from these parts. Pure.
import { CoreError } from '../errors';
import type { CatalogStep } from '../catalog/catalog-schema';
import { renderSteps, renderTemplate, type TemplateContext } from '../catalog/catalog-templates';
import type { ServiceBackupRecord } from './service-backups-tables';
import type { OperationPhase } from './services-tables';
import type { PlanResult, PlanTask } from '../../wire/plan';
import { afterStart, finalChecks, livenessTask, resolve, watchTask, writeTasks, type PlanInput } from './service-plan';

/** The phase whose hashes become the backup's record (a backup operation's, or an upgrade's first). */
export const BACKUP_PHASE = 'backup';
export const VERIFY_PHASE = 'verify the backup';

/** Where a backup set keeps a service's files on the host: under a managed root, one folder per set. */
export const backupDir = (setId: string, service: string): string => `/var/lib/navin/backups/${setId}/${service}`;

/** The catalog's steps as plan tasks: a unit step as its systemctl verb, a command as command.run. */
export function stepTasks(steps: CatalogStep[], unit: string, ctx: TemplateContext, prefix: string): PlanTask[] {
  return renderSteps(steps, ctx).map((s): PlanTask => {
    const id = `${prefix}:${s.name}`;
    if ('unit' in s) return { id, kind: `systemd.${s.unit}`, title: `systemctl ${s.unit} ${unit}`, unit };
    return { id, kind: 'command.run', title: `${s.name}: ${s.run[0]}`, argv: s.run, ...(s.timeout_s ? { timeout_s: s.timeout_s } : {}) };
  });
}

export function backupBlock(input: PlanInput) {
  const desc = input.catalog.service(input.service);
  if (!desc?.backup) throw new CoreError('backup_unsupported', `${input.service} keeps no data the catalog knows how to back up`);
  return desc.backup;
}

/**
 * The backup of one service under a set: on its first host, the folder made, the catalog's steps (a snapshot, or
 * a stop, an archive and a start), every file hashed, the catalog's verification; the service's health after a
 * stop. The hashes the `hash` task reports are what a restore checks again.
 */
export function backupPhase(input: PlanInput, setId: string): OperationPhase {
  const block = backupBlock(input);
  const dir = backupDir(setId, input.service);
  const { desc, instances } = resolve({ ...input, backup_dir: dir });
  const inst = instances[0]!;
  const unit = desc.unit.name;
  const restarted = block.steps.some((s) => 'unit' in s && s.unit !== 'stop');
  const tasks: PlanTask[] = [
    { id: 'backup:folder', kind: 'command.run', title: `mkdir ${dir}`, argv: ['mkdir', '-p', '-m', '0700', dir] },
    ...stepTasks(block.steps, unit, inst.ctx, 'backup'),
    {
      id: 'hash',
      kind: 'files.hash',
      title: `sha256 of ${block.files.length} file${block.files.length === 1 ? '' : 's'}`,
      paths: block.files.map((f) => inst.ctx.files[f.name]!),
    },
    ...(block.verify
      ? [
          {
            id: 'verify',
            kind: 'command.run',
            title: block.verify.description,
            argv: block.verify.run.map((a) => renderTemplate(a, inst.ctx)),
          } as PlanTask,
        ]
      : []),
    ...(restarted ? [afterStart(livenessTask(desc, inst))] : []),
  ];
  return {
    name: BACKUP_PHASE,
    plans: [{ host_id: inst.host.id, args: { title: `back up ${input.service} on ${inst.host.name}`, tasks } }],
  };
}

/**
 * The backup's files from its phase: the `hash` task's paths (in the catalog's file order) with the sha256 and
 * size it reported for each.
 */
export function backupFiles(
  names: string[],
  tasks: PlanTask[],
  hashed: Record<string, { sha256: string; size: number }> | undefined,
): ServiceBackupRecord['files'] {
  const hash = tasks.find((t) => t.id === 'hash');
  const paths = hash?.kind === 'files.hash' ? hash.paths : [];
  const out: ServiceBackupRecord['files'] = {};
  names.forEach((name, i) => {
    const path = paths[i];
    const got = path ? hashed?.[path] : undefined;
    if (!path || !got) throw new CoreError('backup_incomplete', `the backup reported no sha256 for its file ${name}`);
    out[name] = { path, ...got };
  });
  return out;
}

/** The phase that starts a service again when its backup failed after stopping it (NATS's archive, say). */
export const RESTART_PHASE = 'start again after the failed backup';

/**
 * The tasks that start the unit again after a backup phase that failed once its steps had stopped it and before
 * they started it again, with its health; null when the service was never stopped or was started again.
 */
export function restartAfterFailedBackup(tasks: PlanTask[], result: Partial<PlanResult> | null): PlanTask[] | null {
  const status = (id: string) => (result?.tasks ?? []).find((t) => t.id === id)?.status;
  const stop = tasks.find((t) => t.kind === 'systemd.stop');
  if (!stop || stop.kind !== 'systemd.stop') return null;
  const stopped = status(stop.id) === 'succeeded' || status(stop.id) === 'failed';
  const start = tasks.find((t) => t.kind === 'systemd.start');
  if (!stopped || (start && status(start.id) === 'succeeded')) return null;
  return [
    { id: 'start', kind: 'systemd.start', title: `systemctl start ${stop.unit}`, unit: stop.unit },
    ...tasks.filter((t) => t.id === 'liveness'),
  ];
}

/** The catalog's checks of a backup's files on the host that holds them: every sha256 as recorded, then its own verification. */
export function verifyTasks(input: PlanInput, backup: ServiceBackupRecord, ctx: TemplateContext): PlanTask[] {
  const block = backupBlock(input);
  return [
    {
      id: 'verify:hashes',
      kind: 'files.verify',
      title: `sha256 of ${Object.keys(backup.files).length} backup file(s) as recorded`,
      files: Object.fromEntries(Object.values(backup.files).map((f) => [f.path, f.sha256])),
    },
    ...(block.verify ? [catalogVerifyTask(block.verify, ctx)] : []),
  ];
}

/** The catalog's own verification of a backup's files (etcdctl reading a snapshot, say), rendered for one host. */
export function catalogVerifyTask(verify: { description: string; run: string[] }, ctx: TemplateContext): PlanTask {
  return { id: 'verify:catalog', kind: 'command.run', title: verify.description, argv: verify.run.map((a) => renderTemplate(a, ctx)) };
}

/**
 * A restore of `backup` into input.version (the backup's) for a service of one instance: every hash and the
 * catalog's verification first, on the host that holds the files; then, when the service runs another version (the
 * restore an upgrade offers), that version's files and unit written back; the catalog's restore steps (stop, put
 * the data back, start); health, readiness, functional test. A service of several members: cluster-restore.ts.
 */
export function oneInstanceRestorePhases(input: PlanInput, backup: ServiceBackupRecord, opts: RestoreOptions): OperationPhase[] {
  const block = backupBlock(input);
  const { desc, instances } = resolve({ ...input, backup_dir: backup.dir });
  if (instances.length !== 1)
    throw new CoreError('internal', `a restore of one instance was built for ${input.service}, which runs ${instances.length}`);
  const inst = instances[0]!;
  if (inst.host.id !== backup.host_id)
    throw new CoreError('restore_unsupported', `the backup is on another host than the one ${input.service} runs on now`, {
      backup_host_id: backup.host_id,
    });
  const unit = desc.unit.name;
  const ctx = withToken(inst.ctx, opts.token);
  const restore: PlanTask[] = [
    ...(opts.rewrite
      ? [{ id: 'stop', kind: 'systemd.stop', title: `systemctl stop ${unit}`, unit } as PlanTask, ...writeTasks(desc, inst)]
      : []),
    ...stepTasks(block.restore.steps, unit, ctx, 'restore'),
    afterStart(livenessTask(desc, inst)),
    watchTask(desc, inst),
  ];
  const on = (name: string, title: string, tasks: PlanTask[]): OperationPhase => ({
    name,
    plans: [{ host_id: inst.host.id, args: { title: `${title} on ${inst.host.name}`, tasks } }],
  });
  return [
    on(VERIFY_PHASE, `verify the ${input.service} backup`, verifyTasks(input, backup, inst.ctx)),
    on('restore', `restore ${input.service} ${input.version}`, restore),
    finalChecks(desc, inst, true),
  ];
}

export interface RestoreOptions {
  /** The service runs another version than the backup's: its files and unit are written back first. */
  rewrite: boolean;
  /**
   * The cluster token the restored data is given (a member list's identity in etcd), new for each restore so the
   * restored members never take the old cluster's members for their own.
   */
  token: string;
}

/** The template context with the restore's own cluster token. */
export const withToken = (ctx: TemplateContext, token: string): TemplateContext => ({ ...ctx, cluster: { ...ctx.cluster, token } });
