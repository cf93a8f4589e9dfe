// The restore of a three-member etcd from one backup, built from the real catalog: verified and read on the member
// that took it, copied to the two others, every member stopped before any is restored, each restored with the whole
// member list in order and a token no other restore had, started together, then the cluster's checks; the copies
// carry the bytes read only when they hash as recorded; what cannot be done is refused with a code.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadBuiltinCatalog } from '../../../../main/core/catalog/catalog-builtin';
import type { Catalog } from '../../../../main/core/catalog/catalog';
import type { CoreError } from '../../../../main/core/errors';
import { backupDir } from '../../../../main/core/services/backup-plan';
import { carriedPlans, restorePhases } from '../../../../main/core/services/cluster-restore';
import type { PlanInput } from '../../../../main/core/services/service-plan';
import type { ServiceBackupRecord } from '../../../../main/core/services/service-backups-tables';
import { DEFAULT_MANAGED_ROOTS, isManagedUnit } from '../../../../main/wire/node-agent';
import { MAX_INLINE_BYTES, planProblem, type PlanResult, type PlanTask } from '../../../../main/wire/plan';

const load = loadBuiltinCatalog();
if (!load.ok) throw new Error('the built-in catalog is invalid');
const catalog: Catalog = load.catalog;
const hosts = ['a', 'b', 'c'].map((n, i) => ({ id: `id-${n}`, name: `host-${n}`, address: `198.18.6.${i + 10}`, architecture: 'amd64' }));
const input = (over: Partial<PlanInput> = {}): PlanInput => ({
  catalog,
  clusterId: '0123456789abcdef',
  service: 'etcd',
  version: '3.4.23-1',
  hosts,
  settings: {},
  mirror: null,
  tls: { tls: true, certificates: false },
  ...over,
});
const snapshot = Buffer.from('an etcd snapshot, as bytes');
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const dir = backupDir('set-9', 'etcd');
const backup = (over: Partial<ServiceBackupRecord> = {}): ServiceBackupRecord => ({
  set_id: 'set-9',
  service: 'etcd',
  version: '3.4.23-1',
  host_id: 'id-b',
  dir,
  files: { snapshot: { path: `${dir}/etcd-snapshot.db`, sha256: sha(snapshot), size: snapshot.length } },
  operation_id: 'op-9',
  created_at: '2026-12-06T00:00:00.000Z',
  ...over,
});
const ids = (tasks: PlanTask[]): string[] => tasks.map((t) => t.id);
const valid = (tasks: PlanTask[]): void => expect(planProblem({ title: 't', tasks }, DEFAULT_MANAGED_ROOTS, isManagedUnit)).toBeNull();
const argvOf = (tasks: PlanTask[], id: string): string[] => (tasks.find((t) => t.id === id) as { argv: string[] }).argv;
const refusal = (run: () => unknown): CoreError => {
  try {
    run();
  } catch (error) {
    return error as CoreError;
  }
  throw new Error('not refused');
};
/** The verification's result as the agent reports it: the bytes it read of the snapshot. */
const readResult = (bytes: Buffer): Partial<PlanResult> => ({
  tasks: [{ index: 2, id: 'read:snapshot', kind: 'file.read', status: 'succeeded', output: { content_base64: bytes.toString('base64') } }],
});

describe('the restore of a three-member etcd', () => {
  it('verifies and reads on the member that holds the backup, copies to the others, stops all, restores all, then checks', () => {
    const phases = restorePhases(input(), backup(), { rewrite: false, token: 't' });
    expect(phases.map((p) => p.name)).toEqual([
      'verify the backup',
      'copy the backup to every member',
      'stop every member',
      'restore every member',
      'readiness and functional test',
    ]);
    expect(phases.map((p) => p.plans.map((x) => x.host_id))).toEqual([
      ['id-b'],
      ['id-a', 'id-c'],
      ['id-a', 'id-b', 'id-c'],
      ['id-a', 'id-b', 'id-c'],
      ['id-a'],
    ]);
    const [verify, copy, stop, restore] = phases.map((p) => p.plans.map((x) => x.args.tasks)) as PlanTask[][][];
    expect(ids(verify![0]!)).toEqual(['verify:hashes', 'verify:catalog', 'read:snapshot']);
    expect(verify![0]![0]).toMatchObject({ kind: 'files.verify', files: { [`${dir}/etcd-snapshot.db`]: sha(snapshot) } });
    expect(verify![0]![2]).toEqual({ id: 'read:snapshot', kind: 'file.read', title: expect.any(String), path: `${dir}/etcd-snapshot.db` });
    // Nothing before the stop phase stops or changes the service.
    for (const t of [...verify!.flat(), ...copy!.flat()]) expect(t.kind).not.toMatch(/^systemd\./);
    expect(ids(copy![0]!)).toEqual(['copy:folder', 'copy:snapshot', 'verify:catalog']);
    // The copy is written only if it hashes as recorded when the backup was taken; etcdctl reads it there too.
    expect(copy![0]![1]).toMatchObject({ kind: 'file.write', path: `${dir}/etcd-snapshot.db`, sha256: sha(snapshot), mode: '0600' });
    expect(argvOf(copy![1]!, 'verify:catalog')).toEqual([
      '/opt/navin/etcd/3.4.23-1/etcdctl',
      'snapshot',
      'status',
      `${dir}/etcd-snapshot.db`,
      '--write-out=json',
    ]);
    for (const tasks of stop!)
      expect(tasks).toEqual([{ id: 'restore:stop', kind: 'systemd.stop', title: expect.any(String), unit: 'navin-etcd.service' }]);
    expect(ids(restore![1]!)).toEqual([
      'restore:drop-leftovers',
      'restore:restore-snapshot',
      'restore:set-aside',
      'restore:put-in-place',
      'restore:drop-work-folder',
      'restore:own',
      'restore:start',
      'liveness',
      'watch',
    ]);
    // The copies go once restored; the set's own file stays on the member that took it.
    expect(ids(restore![0]!)).toContain('drop:snapshot');
    expect(restore![0]!.find((t) => t.id === 'drop:snapshot')).toMatchObject({ kind: 'file.remove', path: `${dir}/etcd-snapshot.db` });
    expect(ids(restore![0]!).indexOf('drop:snapshot')).toBeGreaterThan(ids(restore![0]!).indexOf('restore:restore-snapshot'));
    expect(ids(restore![1]!)).not.toContain('drop:snapshot');
    // After the start, the member waits for the others (a quorum) before its liveness counts.
    expect(restore![0]!.find((t) => t.id === 'liveness')).toMatchObject({ kind: 'check', retry_for_s: 60 });
  });

  it('restores each member under its own name and peer URL, with the whole member list in order and the same new token (TLS)', () => {
    const restore = restorePhases(input(), backup(), { rewrite: false, token: 'navin-etcd-restore-0011' })[3]!.plans.map(
      (p) => p.args.tasks,
    );
    const list = 'host-a=https://198.18.6.10:2380,host-b=https://198.18.6.11:2380,host-c=https://198.18.6.12:2380';
    restore.forEach((tasks, i) => {
      expect(argvOf(tasks, 'restore:restore-snapshot')).toEqual([
        '/opt/navin/etcd/3.4.23-1/etcdctl',
        'snapshot',
        'restore',
        `${dir}/etcd-snapshot.db`,
        `--name=${hosts[i]!.name}`,
        '--data-dir=/var/lib/navin/etcd/restoring',
        `--initial-cluster=${list}`,
        '--initial-cluster-token=navin-etcd-restore-0011',
        `--initial-advertise-peer-urls=https://${hosts[i]!.address}:2380`,
      ]);
    });
  });

  it('gives every restore a cluster token of its own, never the install’s', () => {
    const tokenOf = (): string =>
      argvOf(restorePhases(input(), backup(), { rewrite: false })[3]!.plans[0]!.args.tasks, 'restore:restore-snapshot')
        .find((a) => a.startsWith('--initial-cluster-token='))!
        .slice('--initial-cluster-token='.length);
    const [first, second] = [tokenOf(), tokenOf()];
    expect(first).toMatch(/^navin-etcd-restore-[0-9a-f]{16}$/);
    expect(second).not.toBe(first);
    expect(first).not.toBe('navin-etcd-01234567');
  });

  it('into another version, each member gets that version’s files and unit before its data', () => {
    const restore = restorePhases(input(), backup(), { rewrite: true, token: 't' })[3]!.plans[2]!.args.tasks;
    expect(ids(restore).slice(0, 4)).toEqual(['write:config', 'write:unit', 'daemon-reload', 'restore:drop-leftovers']);
  });

  it('the copies carry the bytes the verification read, each plan then valid as the agent judges it', () => {
    const phases = restorePhases(input(), backup(), { rewrite: false, token: 't' });
    const carried = carriedPlans(phases[1]!.plans, readResult(snapshot));
    expect(carried.ok).toBe(true);
    if (!carried.ok) return;
    expect(carried.plans.map((p) => p.host_id)).toEqual(['id-a', 'id-c']);
    for (const p of carried.plans) {
      const write = p.args.tasks.find((t) => t.id === 'copy:snapshot') as { content_base64: string; sha256: string };
      expect(Buffer.from(write.content_base64, 'base64').equals(snapshot)).toBe(true);
      expect(write.sha256).toBe(sha(snapshot));
      valid(p.args.tasks);
    }
    for (const phase of [phases[0]!, ...phases.slice(2)]) for (const p of phase.plans) valid(p.args.tasks);
  });

  it('bytes that do not hash as recorded (or none) are never copied: backup_modified, backup_incomplete', () => {
    const phases = restorePhases(input(), backup(), { rewrite: false, token: 't' });
    const changed = carriedPlans(phases[1]!.plans, readResult(Buffer.from('another snapshot')));
    expect(changed).toMatchObject({ ok: false, code: 'backup_modified' });
    expect(carriedPlans(phases[1]!.plans, { tasks: [] })).toMatchObject({ ok: false, code: 'backup_incomplete' });
    expect(carriedPlans(phases[1]!.plans, null)).toMatchObject({ ok: false, code: 'backup_incomplete' });
  });

  it('refuses with a code what it cannot do: a backup on a host that no longer runs etcd, a snapshot over what a plan carries', () => {
    const gone = refusal(() => restorePhases(input(), backup({ host_id: 'id-z' }), { rewrite: false }));
    expect(gone.code).toBe('restore_unsupported');
    expect(gone.details).toMatchObject({ backup_host_id: 'id-z' });
    const large = backup({ files: { snapshot: { path: `${dir}/etcd-snapshot.db`, sha256: sha(snapshot), size: MAX_INLINE_BYTES + 1 } } });
    const big = refusal(() => restorePhases(input(), large, { rewrite: false }));
    expect(big.code).toBe('restore_unsupported');
    expect(big.details).toMatchObject({ file: 'snapshot', size: MAX_INLINE_BYTES + 1, max_bytes: MAX_INLINE_BYTES });
    // A member list other than the backup's is no refusal: the snapshot is restored with the members of today.
    const two = restorePhases(input({ hosts: hosts.slice(1) }), backup(), { rewrite: false, token: 't' });
    expect(argvOf(two[3]!.plans[0]!.args.tasks, 'restore:restore-snapshot')).toContain(
      '--initial-cluster=host-b=https://198.18.6.11:2380,host-c=https://198.18.6.12:2380',
    );
  });
});
