// The plans of a backup and of a restore, built from the real catalog: the backup on the first host with every
// file hashed, the restore verified before anything is stopped, one instance only, and each task valid as the
// agent will judge it.
import { describe, expect, it } from 'vitest';
import { loadBuiltinCatalog } from '../../../../main/core/catalog/catalog-builtin';
import type { Catalog } from '../../../../main/core/catalog/catalog';
import { BACKUP_PHASE, backupDir, backupFiles, backupPhase, restartAfterFailedBackup } from '../../../../main/core/services/backup-plan';
import { restorePhases } from '../../../../main/core/services/cluster-restore';
import type { PlanInput } from '../../../../main/core/services/service-plan';
import type { CoreError } from '../../../../main/core/errors';
import type { ServiceBackupRecord } from '../../../../main/core/services/service-backups-tables';
import { DEFAULT_MANAGED_ROOTS, isManagedUnit } from '../../../../main/wire/node-agent';
import { planProblem, type PlanTask } from '../../../../main/wire/plan';

const load = loadBuiltinCatalog();
if (!load.ok) throw new Error('the built-in catalog is invalid');
const catalog: Catalog = load.catalog;
const hosts = ['a', 'b', 'c'].map((n, i) => ({ id: `id-${n}`, name: `host-${n}`, address: `198.18.5.${i + 10}`, architecture: 'amd64' }));
const input = (over: Partial<PlanInput> = {}): PlanInput => ({
  catalog,
  clusterId: '0123456789abcdef',
  service: 'nats',
  version: '2.9.10-1',
  hosts: hosts.slice(0, 1),
  settings: {},
  mirror: null,
  ...over,
});
const valid = (tasks: PlanTask[]): void => expect(planProblem({ title: 't', tasks }, DEFAULT_MANAGED_ROOTS, isManagedUnit)).toBeNull();
const ids = (tasks: PlanTask[]): string[] => tasks.map((t) => t.id);

const natsBackup = (over: Partial<ServiceBackupRecord> = {}): ServiceBackupRecord => ({
  set_id: 'set-1',
  service: 'nats',
  version: '2.9.10-1',
  host_id: 'id-a',
  dir: backupDir('set-1', 'nats'),
  files: { jetstream: { path: `${backupDir('set-1', 'nats')}/jetstream.tar.gz`, sha256: 'ab'.repeat(32), size: 10 } },
  operation_id: 'op-1',
  created_at: '2026-12-04T00:00:00.000Z',
  ...over,
});

describe('backup plans', () => {
  it('NATS: on the first host, its folder made, stopped for the archive, started, every file hashed, then verified and healthy', () => {
    const phase = backupPhase(input(), 'set-1');
    expect(phase.name).toBe(BACKUP_PHASE);
    expect(phase.plans.map((p) => p.host_id)).toEqual(['id-a']);
    const tasks = phase.plans[0]!.args.tasks;
    valid(tasks);
    expect(ids(tasks)).toEqual(['backup:folder', 'backup:stop', 'backup:archive', 'backup:start', 'hash', 'verify', 'liveness']);
    expect(tasks[4]).toMatchObject({ kind: 'files.hash', paths: ['/var/lib/navin/backups/set-1/nats/jetstream.tar.gz'] });
    expect(tasks[2]).toMatchObject({
      kind: 'command.run',
      argv: ['tar', '-C', '/var/lib/navin/nats', '-czf', '/var/lib/navin/backups/set-1/nats/jetstream.tar.gz', 'jetstream'],
    });
    // After the start, the liveness may wait for the server to come up.
    expect(tasks[6]).toMatchObject({ kind: 'check', retry_for_s: 60 });
  });

  it('etcd: a snapshot from the running first member, never a stop', () => {
    const tasks = backupPhase(input({ service: 'etcd', version: '3.4.23-1', hosts }), 'set-2').plans[0]!.args.tasks;
    valid(tasks);
    expect(ids(tasks)).toEqual(['backup:folder', 'backup:snapshot', 'hash', 'verify']);
    expect((tasks[1] as { argv: string[] }).argv).toEqual([
      '/opt/navin/etcd/3.4.23-1/etcdctl',
      '--endpoints=http://198.18.5.10:2379',
      'snapshot',
      'save',
      '/var/lib/navin/backups/set-2/etcd/etcd-snapshot.db',
    ]);
  });

  it('a backup that failed between its stop and its start starts the service again, with its health; otherwise nothing', () => {
    const tasks = backupPhase(input(), 'set-1').plans[0]!.args.tasks;
    const result = (statuses: Record<string, string>) =>
      ({ tasks: tasks.map((t, index) => ({ index, id: t.id, kind: t.kind, status: statuses[t.id] ?? 'skipped' })) }) as never;
    const failedArchive = result({ 'backup:folder': 'succeeded', 'backup:stop': 'succeeded', 'backup:archive': 'failed' });
    expect(restartAfterFailedBackup(tasks, failedArchive)?.map((t) => [t.id, t.kind])).toEqual([
      ['start', 'systemd.start'],
      ['liveness', 'check'],
    ]);
    // Failed before the stop: nothing to start. Failed after the start (the hash): it runs already.
    expect(restartAfterFailedBackup(tasks, result({ 'backup:folder': 'failed' }))).toBeNull();
    expect(
      restartAfterFailedBackup(
        tasks,
        result({ 'backup:stop': 'succeeded', 'backup:archive': 'succeeded', 'backup:start': 'succeeded', hash: 'failed' }),
      ),
    ).toBeNull();
    // etcd's snapshot never stops the member.
    const etcd = backupPhase(input({ service: 'etcd', version: '3.4.23-1' }), 's').plans[0]!.args.tasks;
    expect(restartAfterFailedBackup(etcd, result({ 'backup:snapshot': 'failed' }))).toBeNull();
  });

  it('a service that keeps no data has no backup', () => {
    expect(() => backupPhase(input({ service: 'node-exporter', version: '1.5.0-1' }), 's')).toThrow(
      expect.objectContaining({ code: 'backup_unsupported' }) as unknown as Error,
    );
  });

  it('the recorded files are the hash task’s paths with what the agent reported; one missing is backup_incomplete', () => {
    const tasks = backupPhase(input(), 'set-1').plans[0]!.args.tasks;
    const path = '/var/lib/navin/backups/set-1/nats/jetstream.tar.gz';
    expect(backupFiles(['jetstream'], tasks, { [path]: { sha256: 'cd'.repeat(32), size: 42 } })).toEqual({
      jetstream: { path, sha256: 'cd'.repeat(32), size: 42 },
    });
    try {
      backupFiles(['jetstream'], tasks, {});
      expect.unreachable();
    } catch (error) {
      expect((error as CoreError).code).toBe('backup_incomplete');
    }
  });
});

describe('restore plans', () => {
  it('every hash and the catalog’s verification come first, in a phase of their own; then stop, restore steps, start, health', () => {
    const phases = restorePhases(input(), natsBackup(), { rewrite: false });
    expect(phases.map((p) => p.name)).toEqual(['verify the backup', 'restore', 'readiness and functional test']);
    for (const p of phases) valid(p.plans[0]!.args.tasks);
    const verify = phases[0]!.plans[0]!.args.tasks;
    expect(verify[0]).toEqual({
      id: 'verify:hashes',
      kind: 'files.verify',
      title: expect.any(String),
      files: { '/var/lib/navin/backups/set-1/nats/jetstream.tar.gz': 'ab'.repeat(32) },
    });
    // Nothing in the verification phase stops or changes the service.
    expect(verify.every((t) => t.kind === 'files.verify' || t.kind === 'command.run')).toBe(true);
    expect(ids(phases[1]!.plans[0]!.args.tasks)).toEqual([
      'restore:stop',
      'restore:drop-previous',
      'restore:make-sure',
      'restore:set-aside',
      'restore:extract',
      'restore:own',
      'restore:start',
      'liveness',
      'watch',
    ]);
  });

  it('into another version (an upgrade’s restore): that version’s files and unit are written back before the data', () => {
    const tasks = restorePhases(input(), natsBackup(), { rewrite: true })[1]!.plans[0]!.args.tasks;
    expect(ids(tasks).slice(0, 5)).toEqual(['stop', 'write:config', 'write:unit', 'daemon-reload', 'restore:stop']);
    expect((tasks[2] as { content: string }).content).toContain('/opt/navin/nats/2.9.10-1/nats-server');
  });

  it('etcd of one member: restored with itself as the member list and the restore’s own cluster token', () => {
    const etcd = { service: 'etcd', version: '3.4.23-1' };
    const backup = natsBackup({ ...etcd, dir: backupDir('set-1', 'etcd'), files: {} });
    const tasks = restorePhases(input(etcd), backup, { rewrite: false, token: 'tok-1' })[1]!.plans[0]!.args.tasks;
    const argv = (tasks.find((t) => t.id === 'restore:restore-snapshot') as { argv: string[] }).argv;
    expect(argv).toContain('--initial-cluster=host-a=http://198.18.5.10:2380');
    expect(argv).toContain('--initial-cluster-token=tok-1');
  });

  it('a backup on another host than the one the service runs on now is refused', () => {
    try {
      restorePhases(input({ hosts: hosts.slice(1, 2) }), natsBackup(), { rewrite: false });
      expect.unreachable();
    } catch (error) {
      expect((error as CoreError).code).toBe('restore_unsupported');
    }
  });
});
