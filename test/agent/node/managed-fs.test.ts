// Reading or running a managed file refuses a symlinked folder on the way, as writing one does: a service user
// who may write under its data folder cannot lead the root agent outside the managed roots.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { ManagedFs } from '../../../agent/node/managed-fs';
import { tempDir } from '../../support/temp-dir';

test('readPath refuses a folder on the way that is a symlink or a file, and takes a missing one', () => {
  const dir = tempDir('navin-mfs-');
  onTestFinished(dir.remove);
  const host = dir.path;
  mkdirSync(join(host, 'var/lib/navin/etcd/data'), { recursive: true });
  mkdirSync(join(host, 'elsewhere'));
  writeFileSync(join(host, 'elsewhere/secret'), 'x');
  writeFileSync(join(host, 'var/lib/navin/etcd/file'), 'x');
  symlinkSync(join(host, 'elsewhere'), join(host, 'var/lib/navin/etcd/snap'));
  const fs = new ManagedFs(host, ['/var/lib/navin']);
  expect(fs.readPath('/var/lib/navin/etcd/data/member')).toBe(join(host, 'var/lib/navin/etcd/data/member'));
  expect(fs.readPath('/var/lib/navin/etcd/absent/deeper/x')).toBe(join(host, 'var/lib/navin/etcd/absent/deeper/x'));
  expect(() => fs.readPath('/var/lib/navin/etcd/snap/secret')).toThrow(expect.objectContaining({ code: 'path_not_managed' }));
  expect(() => fs.readPath('/var/lib/navin/etcd/file/x')).toThrow(expect.objectContaining({ code: 'path_not_managed' }));
  expect(() => fs.readPath('/etc/shadow')).toThrow(expect.objectContaining({ code: 'path_not_managed' }));
});
