// The plan tasks a backup and a restore are made of, run by the node agent: command.run (no shell, only a binary
// the console installed or a listed tool), files.hash and files.verify (a file changed since it was recorded
// stops the plan with backup_modified, naming it, before anything else runs), and file.read (a backup's bytes for
// a restore's other members, refused over what a plan can carry).
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManagedFs } from '../../../agent/node/managed-fs';
import { runTask, type TaskContext } from '../../../agent/node/tasks';
import { DEFAULT_MANAGED_ROOTS, isManagedUnit } from '../../../main/wire/node-agent';
import { MAX_INLINE_BYTES, planProblem, type PlanTask } from '../../../main/wire/plan';
import { tempDir } from '../../support/temp-dir';

const sha = (t: string): string => createHash('sha256').update(t).digest('hex');

describe('backup and restore tasks', () => {
  const dir = tempDir('navin-backup-tasks-');
  afterAll(() => dir.remove());
  const ctx: TaskContext = {
    fs: new ManagedFs(dir.path, DEFAULT_MANAGED_ROOTS),
    commandId: 'c1',
    systemctl: 'false',
    runCheck: async () => {
      throw new Error('no check here');
    },
  };
  const code = async (task: PlanTask): Promise<string | undefined> => {
    try {
      await runTask(task, ctx);
      return undefined;
    } catch (e) {
      return (e as { code?: string }).code;
    }
  };

  it('runs a listed tool and an installed binary without a shell, and fails command_failed on a non-zero exit', async () => {
    mkdirSync(join(dir.path, 'var/lib/navin/backups/s1'), { recursive: true });
    const made = await runTask(
      { id: 'mk', kind: 'command.run', argv: ['mkdir', '-p', join(dir.path, 'var/lib/navin/backups/s1/etcd')] },
      ctx,
    );
    expect(made.output).toMatchObject({ exit_code: 0 });
    const bin = join(dir.path, 'opt/navin/etcd/3.4.23-1/etcdctl');
    mkdirSync(join(bin, '..'), { recursive: true });
    writeFileSync(bin, '#!/bin/sh\necho "snapshot saved to $2"\n');
    chmodSync(bin, 0o755);
    const ran = await runTask({ id: 'snap', kind: 'command.run', argv: ['/opt/navin/etcd/3.4.23-1/etcdctl', 'save', 'x.db'] }, ctx);
    expect(ran.output.stdout).toBe('snapshot saved to x.db\n');
    expect(await code({ id: 'bad', kind: 'command.run', argv: ['rm', join(dir.path, 'nothing-here')] })).toBe('command_failed');
    // The wire refuses anything else before it reaches the agent: a shell, a binary outside the managed roots.
    for (const argv of [['sh', '-c', 'id'], ['/usr/bin/env', 'id'], ['/opt/navin/../bin/sh']])
      expect(planProblem({ tasks: [{ id: 'x', kind: 'command.run', argv }] }, DEFAULT_MANAGED_ROOTS, isManagedUnit)).toMatch(/argv\[0\]/);
  });

  it('hashes the files of a backup, and refuses a restore whose file changed since, naming it', async () => {
    const file = '/var/lib/navin/backups/s1/etcd/snapshot.db';
    writeFileSync(join(dir.path, file), 'snapshot bytes');
    const hashed = await runTask({ id: 'hash', kind: 'files.hash', paths: [file] }, ctx);
    expect(hashed.output).toEqual({ files: { [file]: { sha256: sha('snapshot bytes'), size: 14 } } });
    expect((await runTask({ id: 'ok', kind: 'files.verify', files: { [file]: sha('snapshot bytes') } }, ctx)).output).toEqual({
      verified: 1,
    });
    writeFileSync(join(dir.path, file), 'snapshot bytes, tampered');
    let error: { code?: string; result?: { differing: unknown[] } } | undefined;
    try {
      await runTask({ id: 'verify', kind: 'files.verify', files: { [file]: sha('snapshot bytes') } }, ctx);
    } catch (e) {
      error = e as typeof error;
    }
    expect(error?.code).toBe('backup_modified');
    expect(error?.result?.differing).toEqual([{ path: file, expected: sha('snapshot bytes'), observed: sha('snapshot bytes, tampered') }]);
    expect(await code({ id: 'gone', kind: 'files.hash', paths: ['/var/lib/navin/backups/s1/etcd/absent.db'] })).toBe('file_missing');
  });

  it('reads a file whole with its sha256, and refuses one over what a plan can carry, a symlink or a missing one', async () => {
    const file = '/var/lib/navin/backups/s2/etcd/etcd-snapshot.db';
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13, 0]);
    mkdirSync(join(dir.path, '/var/lib/navin/backups/s2/etcd'), { recursive: true });
    writeFileSync(join(dir.path, file), bytes);
    const read = await runTask({ id: 'read:snapshot', kind: 'file.read', path: file }, ctx);
    expect(read.output).toEqual({
      path: file,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: 8,
      content_base64: bytes.toString('base64'),
    });
    expect(Buffer.from(read.output.content_base64 as string, 'base64').equals(bytes)).toBe(true);
    const big = '/var/lib/navin/backups/s2/etcd/big.db';
    writeFileSync(join(dir.path, big), Buffer.alloc(MAX_INLINE_BYTES + 1));
    expect(await code({ id: 'big', kind: 'file.read', path: big })).toBe('file_too_large');
    writeFileSync(join(dir.path, '/var/lib/navin/backups/s2/etcd/exactly.db'), Buffer.alloc(MAX_INLINE_BYTES));
    expect(await code({ id: 'exact', kind: 'file.read', path: '/var/lib/navin/backups/s2/etcd/exactly.db' })).toBeUndefined();
    symlinkSync(join(dir.path, file), join(dir.path, '/var/lib/navin/backups/s2/etcd/link.db'));
    expect(await code({ id: 'link', kind: 'file.read', path: '/var/lib/navin/backups/s2/etcd/link.db' })).toBe('file_missing');
    expect(await code({ id: 'gone', kind: 'file.read', path: '/var/lib/navin/backups/s2/etcd/absent.db' })).toBe('file_missing');
    // Only under the managed roots.
    expect(planProblem({ tasks: [{ id: 'x', kind: 'file.read', path: '/etc/shadow' }] }, DEFAULT_MANAGED_ROOTS, isManagedUnit)).toMatch(
      /managed root/,
    );
  });
});
